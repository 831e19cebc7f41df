"""A calculator whose resolver fails (audit-packs, defect 3): an answer the resolver could not give is worded as what it
is, the calculator's own failure, never a rule's verdict ("The rules forbid it." is the sentence of ``kind:
forbidden``); a resolver that raises on some combinations makes the build report ``error[calc-failed]`` at the
calculator's example, one that runs past the time limit ``error[calc-stalled]`` and leaves the calculator out of its
pages (its other answers are unknown); both fail ``kb build --strict``."""

from __future__ import annotations

import html
import json
import re
import time

import pytest

from kb.api import KnowledgeBase
from kb.core.locale import gettext, pgettext
from kb.examples.limits import ExampleLimits
from kb.site.calc import calc_site, py_data_path
from kb.site.calc_py import Calc

MECHANICS = '''\
from kb.mechanics import Trace, between, outcome, resolver


@resolver("g.hit", ranges={{"roll": between(2, 12), "skill": between(2, 12)}}, outputs={{"hit": "whether it hits"}},
          labels={{"roll": ("tirada", "roll"), "skill": ("habilidad", "skill"), "hit": ("impacta", "hits")}})
def hit(roll: int, skill: int):
    """A hit when the roll reaches the skill; a bug on some inputs."""
    {bug}
    return outcome(Trace(), hit=roll >= skill)
'''

ENTRY = """\
id: g.hitting
kind: rule
game: g
title: {es: Impactar, en: Hitting}
source: {doc: seed.txt, section: s}
examples:
  - id: e
    mechanic: g.hit
    given: {roll: 7, skill: 5}
    expect: {hit: true}
"""

RAISES = {"g/mechanics.py": MECHANICS.format(bug='if roll == 8:\n        raise ValueError("boom")'), "g/a.yaml": ENTRY}
"""Raises on every combination with a roll of 8: 11 of the 121."""

LOOPS = {"g/mechanics.py": MECHANICS.format(bug="while skill == 9:\n        pass"), "g/a.yaml": ENTRY}
"""Never ends when the skill is 9; the worked example (skill 5) passes."""

FAST = ExampleLimits(seconds=0.2)

CANNOT = {"en": "The calculator cannot answer these numbers: the program that works out this rule failed on them.",
          "es": "La calculadora no puede responder con estos números: el programa que resuelve esta regla ha fallado con ellos."}


def _shards(site) -> list[dict]:
    return [json.loads(t.split("]=", 1)[1].rstrip(";\n")) for p, t in site.files.items() if re.search(r"-\d+\.js$", p)]


@pytest.mark.parametrize("lang", ["es", "en"])
def test_a_resolver_that_raises_is_answered_cannot_answer_never_forbidden(tree, lang) -> None:
    site = calc_site(KnowledgeBase.load(tree(RAISES)), lang)
    [shard] = _shards(site)
    said = {shard["strings"][o[0]]: shard["strings"][o[4]] if o[4] is not None else None for o in shard["outcomes"]}
    failed = said['{"error":"resolver-failed","kind":null}']
    assert failed == CANNOT[lang] == pgettext(lang, "site", "calc_failed")
    assert gettext(lang, "The rules forbid it.") not in said.values()
    assert sum(shard["outcomes"][k][4] is not None for k in shard["index"]) == 11  # the 11 rolls of 8, no other
    [d] = site.failed
    assert d.format().startswith("content/g/a.yaml:7:5: error[calc-failed]: the calculator of 'g.hitting' (from example "
                                 "'e') cannot answer 11 of 121 combinations: resolver 'g.hit' raised ValueError: boom at ")
    assert '"roll": 8' in d.message and "[calc-failed]" in d.format()


def test_a_resolver_that_loops_leaves_the_calculator_out_and_says_why(tree) -> None:
    kb = KnowledgeBase.load(tree(LOOPS), example_limits=FAST)
    for lang in ("es", "en"):
        site = calc_site(kb, lang)
        [form] = site.forms["g/hitting.md"]
        assert form == f'<p class="kb-calc-left-out" role="note">{html.escape(pgettext(lang, "site", "calc_left_out"))}</p>'
        assert not site.files  # no data: nothing answers "The rules forbid it." (nor anything else) for numbers not tried
        [d] = site.failed  # the third time-out is the 30th combination (roll 4, skill 9): 91 left
        assert d.format() == ("content/g/a.yaml:7:5: error[calc-stalled]: the calculator of 'g.hitting' (from example "
                              "'e') is left out of the page: resolver 'g.hit' ran longer than 0.2 s on 3 combinations, the "
                              'first at {"roll": 2, "skill": 9}, so 91 of 121 were not tried. Fix the resolver')


def test_each_failed_answer_says_how_it_failed_as_data(tree) -> None:
    """What the build reports tells a time-out, a combination not tried and a raise by the refusal's ``failure``, never
    by the words it recorded (a resolver's own message may say anything)."""
    from collections import Counter

    from kb.mechanics.space import RAISED, STALLED, UNTRIED, Refusal
    from kb.site.calc import _enumerate, calculators

    for files, kinds in ((LOOPS, {STALLED: 3, UNTRIED: 91}), (RAISES, {RAISED: 11})):
        kb = KnowledgeBase.load(tree(files), example_limits=FAST)
        [calc] = calculators(kb.entries["g.hitting"], kb.registry.get)
        results = _enumerate(calc, None, FAST.seconds)
        assert Counter(r.failure for r in results if isinstance(r, Refusal)) == kinds


def test_a_time_out_is_not_kept_but_a_deterministic_failure_is(tree) -> None:
    root = tree(LOOPS)
    calc_site(KnowledgeBase.load(root, example_limits=FAST), "es", keep=True)
    again = calc_site(KnowledgeBase.load(root, example_limits=FAST), "es", keep=True)
    assert again.made == ["g"] and again.computed == 1  # tried again: a loaded machine's time-out must not stick
    raises = tree(RAISES)
    calc_site(KnowledgeBase.load(raises), "es", keep=True)
    kept = calc_site(KnowledgeBase.load(raises), "es", keep=True)
    assert kept.made == [] and [d.code for d in kept.failed] == ["calc-failed"]  # still reported when kept


LOOPS_LARGE = {"g/mechanics.py": '''\
from kb.mechanics import Trace, between, outcome, resolver


@resolver("g.sum", ranges={n: between(1, 20) for n in "abcd"}, outputs={"total": "the four numbers added"},
          labels={"a": ("a", "a"), "b": ("b", "b"), "c": ("c", "c"), "d": ("d", "d"), "total": ("total", "total")})
def total(a: int, b: int, c: int, d: int):
    """Four numbers added (a space the page's Python answers); never ends when b is 9."""
    while b == 9:
        pass
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


def test_a_form_the_pages_python_answers_never_hangs_the_build_on_a_loop(tree) -> None:
    """The build calls the resolver near the example for such a form (its first answer, its odds field): a loop there
    (b = 9) is stopped, the calculator left out and reported."""
    site = calc_site(KnowledgeBase.load(tree(LOOPS_LARGE), example_limits=FAST), "en", True, "../kb-py")
    assert site.forms["g/sum.md"] == [f'<p class="kb-calc-left-out" role="note">{pgettext("en", "site", "calc_left_out")}</p>']
    assert not site.files and not site.python
    [d] = site.failed
    assert d.format() == ("content/g/a.yaml:7:5: error[calc-page-stalled]: the calculator of 'g.sum' (from example 'e') "
                          "is left out of the page: resolver 'g.sum' did not give the build its answers near the example "
                          "(the form's first answer and odds table) within 0.6 s; the page's Python would hang on them "
                          "too. Fix the resolver")


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_pages_python_words_a_failure_the_same(tree, lang) -> None:
    """The Pyodide path (kb/site/calc_py.py, run here under CPython): the resolver raising in the page is worded as
    the calculator's failure, with the build's words."""
    kb = KnowledgeBase.load(tree(RAISES))
    res = kb.registry.get("g.hit")
    spec = {"resolver": "g.hit", "given": {"roll": 7, "skill": 5}, "order": [0, 1], "odds": None, "lang": lang,
            "own_names": {}, "names": {}, "context": None}
    shard = json.loads(Calc(spec, res).answer([6, 3]))  # roll 8, skill 5
    [row] = shard["outcomes"]
    assert shard["strings"][row[0]] == '{"error":"resolver-failed","kind":null}'
    assert shard["strings"][row[4]] == CANNOT[lang]


@pytest.mark.parametrize("pack", ["raises", "loops"])
def test_kb_build_reports_the_failed_calculator_and_strict_fails(tree, monkeypatch, pack) -> None:
    from conftest import MKDOCS, cli

    root = tree(RAISES if pack == "raises" else LOOPS)
    monkeypatch.setenv("KB_EXAMPLE_SECONDS", "0.2")
    monkeypatch.setenv("KB_PYODIDE_DIR", "off")
    site = root.parent / "site"
    code, out, err = cli("--content", str(root), "build", "--config", MKDOCS, "--site-dir", str(site))
    code_name = "calc-failed" if pack == "raises" else "calc-stalled"
    assert code == 0, out + err
    found = [line for line in err.splitlines() if f"[{code_name}]" in line]
    assert len(found) == 1 and "content/g/a.yaml:7:5: error[" in found[0], err  # once, for both languages
    for lang in ("es", "en"):
        page = (site / lang / "g" / "hitting.html").read_text(encoding="utf-8")
        if pack == "loops":
            assert "kb-calc-left-out" in page and "<form" not in page.split("kb-calc-left-out")[0][-200:]
            assert "kb-calc.js" not in page
            # the note alone: no "Calculator" heading over no calculator, in the page or its table of contents
            assert 'id="calculator"' not in page and 'href="#calculator"' not in page
        else:
            assert 'id="calculator"' in page and 'href="#calculator"' in page  # a calculator that fails somewhere stays
    code, out, err = cli("--content", str(root), "build", "--config", MKDOCS, "--strict", "--site-dir", str(site))
    assert code == 1 and f"[{code_name}]" in err and "strict" in err, out + err


@pytest.fixture
def chromium():
    from test_browser import launch_chromium

    yield from launch_chromium()


@pytest.mark.browser
def test_in_chromium_the_page_says_the_calculator_cannot_answer(tree, monkeypatch, chromium) -> None:
    """kb-calc.js shows what the shard holds: a roll of 8 reads as the calculator's failure in either language."""
    from conftest import MKDOCS, cli

    root = tree(RAISES)
    monkeypatch.setenv("KB_PYODIDE_DIR", "off")
    site = root.parent / "site"
    code, out, err = cli("--content", str(root), "build", "--config", MKDOCS, "--site-dir", str(site))
    assert code == 0, out + err
    errors: list[str] = []
    for lang in ("es", "en"):
        pg = chromium.new_page()
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto((site / lang / "g" / "hitting.html").as_uri())
        pg.wait_for_selector("form[data-kb-ready]")
        pg.fill('input[name="roll"]', "8")
        pg.wait_for_function("!document.querySelector('form[data-kb-resolver]').dataset.kbBusy")
        result = pg.locator(".kb-calc-result")
        assert json.loads(result.get_attribute("data-kb-outcome")) == {"error": "resolver-failed", "kind": None}
        assert result.inner_text().strip() == CANNOT[lang]
        pg.fill('input[name="roll"]', "9")
        assert json.loads(result.get_attribute("data-kb-outcome")) == {"hit": True}
        pg.close()
    assert errors == []


LOOPS_FAR = {**LOOPS_LARGE, "g/mechanics.py": LOOPS_LARGE["g/mechanics.py"].replace("while b == 9:", "while b == c == 19:")}
"""The large space again, its resolver never ending when b and c are both 19: far from the example, so the build
(which calls it near the example only) never meets the loop, and the page's Python does when a player asks."""



@pytest.mark.parametrize(("lang", "limit"), [("es", "1,5"), ("en", "1.5")])
def test_the_pages_python_is_given_the_builds_time_limit(tree, lang, limit) -> None:
    """The head of a form the page's Python answers carries the limit the build gives the same calls (``STALLS`` times
    the examples' limit) and the words kb-calc.js shows past it, the limit written as the language writes it."""
    site = calc_site(KnowledgeBase.load(tree(LOOPS_FAR), example_limits=ExampleLimits(seconds=0.5)), lang, True, "../kb-py")
    [text] = [t for p, t in site.files.items() if p != py_data_path("g")]  # and the game's names (the page's Python's)
    head = json.loads(text.split("]=", 1)[1].rstrip(";\n"))
    assert head["seconds"] == 1.5 and "py" in head
    too_long = head["words"]["calc_too_long"]
    assert too_long == pgettext(lang, "site", "calc_too_long").replace("{seconds}", limit) and f" {limit} s." in too_long
    assert too_long.startswith(CANNOT[lang].split(":")[0] + ":")  # the calculator's "cannot answer these numbers"
    assert head["words"]["calc_loading"] == pgettext(lang, "site", "calc_starting")  # no size given: none said


@pytest.mark.parametrize(("lang", "said"), [("es", "8,9"), ("en", "8.9")])
def test_the_pages_python_says_the_runtimes_size_as_the_language_writes_it(tree, lang, said) -> None:
    """The head of such a form carries the words kb-calc.js shows while the runtime loads: its size (the build gives
    the runtime's bytes) in megabytes as the language writes numbers, and what it says if the runtime cannot be read."""
    site = calc_site(KnowledgeBase.load(tree(LOOPS_FAR), example_limits=ExampleLimits(seconds=0.5)), lang, True, "../kb-py",
                     size=8_891_234)
    [text] = [t for p, t in site.files.items() if p != py_data_path("g")]
    words = json.loads(text.split("]=", 1)[1].rstrip(";\n"))["words"]
    assert words["calc_loading"] == pgettext(lang, "site", "calc_loading").replace("{size}", said)
    assert f"{said} MB" in words["calc_loading"]
    assert words["calc_no_runtime"] == pgettext(lang, "site", "calc_no_runtime")
    assert words["calc_cannot_start"] == pgettext(lang, "site", "calc_cannot_start") != words["calc_no_runtime"]
    assert words["calc_starting"] == pgettext(lang, "site", "calc_starting")  # the runtime saved: no size said
    assert words["calc_working"] == pgettext(lang, "site", "calc_working")

@pytest.mark.browser
def test_a_loop_in_the_pages_python_never_freezes_the_page(tree, monkeypatch, chromium) -> None:
    """kb-calc.js runs the page's Python in a worker with the head's time limit (here 3 × 1 s, the build's own):
    asked numbers on which the resolver never ends, the page stays usable, the form says it cannot answer within the
    limit (the numbers stay in the fields), and the next numbers are answered by a fresh worker. Before, Pyodide ran
    on the page's thread and the tab froze for good."""
    from conftest import MKDOCS, cli, served
    from test_calc_site import RUNTIME

    if RUNTIME is None:
        pytest.skip("Pyodide is not installed (tests/test_calc_py.py requires it in CI)")
    root = tree(LOOPS_FAR)
    monkeypatch.setenv("KB_PYODIDE_DIR", str(RUNTIME))
    monkeypatch.setenv("KB_EXAMPLE_SECONDS", "1")
    site = root.parent / "site"
    code, out, err = cli("--content", str(root), "build", "--config", MKDOCS, "--site-dir", str(site))
    assert code == 0, out + err
    head = next((site / "es" / "g").glob("kb-calc-g-sum-*.js")).read_text(encoding="utf-8")
    assert '"seconds":3.0' in head  # the build's limit for the same calls: STALLS times the examples' 1 s
    too_long = pgettext("es", "site", "calc_too_long").replace("{seconds}", "3")
    errors: list[str] = []
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    with served(site) as base:
        pg = context.new_page()
        pg.on("pageerror", lambda e: errors.append(str(e)))
        pg.goto(f"{base}/es/g/sum.html")
        pg.wait_for_selector("form[data-kb-ready]")
        result = pg.locator(".kb-calc-result")

        def answer(name: str, text: str) -> object:
            pg.fill(f'input[name="{name}"]', text)
            pg.wait_for_function("!document.querySelector('form[data-kb-resolver]').dataset.kbBusy", timeout=180_000)
            return json.loads(result.get_attribute("data-kb-outcome"))

        assert answer("b", "19") == {"total": 1 + 19 + 3 + 4}  # the runtime started; c is 3 yet
        pg.fill('input[name="c"]', "19", timeout=5_000)
        asked = time.monotonic()
        pg.locator('input[name="d"]').click(timeout=2_000)  # the page answers a tap while the resolver loops
        assert pg.evaluate("document.activeElement.name") == "d"
        pg.wait_for_function("JSON.parse(document.querySelector('.kb-calc-result').dataset.kbOutcome).error"
                             " === 'resolver-too-long'", timeout=15_000)
        took = time.monotonic() - asked
        assert 2.5 < took < 15, took  # the limit, and a margin for a loaded machine
        assert result.inner_text().strip() == too_long.strip() and "3 s" in too_long
        assert result.locator("[role=alert]").count() == 1
        assert [pg.input_value(f'input[name="{n}"]') for n in "abcd"] == ["1", "19", "19", "4"]  # the numbers stay
        assert answer("c", "18") == {"total": 1 + 19 + 18 + 4}  # a fresh worker answers the next numbers
        assert errors == []
    context.close()


@pytest.mark.browser
def test_while_the_pages_python_loads_the_old_answer_is_gone_and_the_page_says_why(tree, monkeypatch, chromium) -> None:
    """On the first change of a form the page's Python answers, the runtime (9 MB) loads: minutes on a poor signal.
    Meanwhile the old answer is never shown beside the new numbers (before, it stayed readable, dimmed: the field said
    5 and the box 10); the form says, in the page's language, that it is getting ready and how much it downloads (the
    runtime's bytes as the language writes them); then the new answer. Once started, an answer that takes a moment
    says «Calculando…». The runtime not readable (offline, not saved): the form says so, it does not wait forever."""
    import threading

    from conftest import MKDOCS, _Quiet, cli, served
    from test_calc_site import RUNTIME

    from kb.core.locale import number

    if RUNTIME is None:
        pytest.skip("Pyodide is not installed (tests/test_calc_py.py requires it in CI)")
    root = tree(LOOPS_FAR)
    monkeypatch.setenv("KB_PYODIDE_DIR", str(RUNTIME))
    monkeypatch.setenv("KB_EXAMPLE_SECONDS", "1")
    site = root.parent / "site"
    code, out, err = cli("--content", str(root), "build", "--config", MKDOCS, "--site-dir", str(site))
    assert code == 0, out + err
    size = sum(p.stat().st_size for p in (site / "kb-py").iterdir())
    assert size > 1e6
    signal = threading.Event()  # the runtime's requests wait for it (a poor signal)
    asked: list[str] = []
    offline: list[bool] = []

    class Slow(_Quiet):
        def do_GET(self) -> None:
            if "/kb-py/" in self.path:
                asked.append(self.path)
                if offline:
                    self.send_error(503)
                    return
                signal.wait(120)
            super().do_GET()

    errors: list[str] = []
    # no service worker: every request of the runtime reaches the server
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                   service_workers="block")
    busy = "!document.querySelector('form[data-kb-resolver]').dataset.kbBusy"
    with served(site, Slow) as base:
        for lang in ("es", "en"):
            loading = pgettext(lang, "site", "calc_loading").replace("{size}", number(round(size / 1e6, 1), lang))
            pg = context.new_page()
            pg.on("pageerror", lambda e: errors.append(str(e)))
            pg.goto(f"{base}/{lang}/g/sum.html")
            pg.wait_for_selector("form[data-kb-ready]")
            result = pg.locator(".kb-calc-result")
            assert json.loads(result.get_attribute("data-kb-outcome")) == {"total": 10}  # the example's, from the build
            old = result.inner_text()
            pg.locator('input[name="b"]').focus()  # the keyboard alone, as a player types
            pg.keyboard.press("Control+a")
            pg.keyboard.type("5")
            wait = result.locator(".kb-calc-wait")
            wait.wait_for(timeout=5_000)
            if lang == "es":
                pg.wait_for_timeout(1_500)
                assert asked and pg.evaluate(busy) is False  # still loading
            assert result.inner_text().strip() == loading and "MB" in loading  # the old answer is not readable
            assert "10" in old and "10" not in result.inner_text()
            assert json.loads(result.get_attribute("data-kb-outcome")) == {"waiting": True}
            assert result.get_attribute("aria-live") is None and result.get_attribute("aria-busy") is None
            said = pg.locator("form[data-kb-resolver] [role=status]")  # the one-line status speaks, not the box
            pg.wait_for_function("([s, t]) => s.textContent === t", arg=[said.element_handle(), loading], timeout=5_000)
            signal.set()
            pg.wait_for_function(busy, timeout=180_000)
            assert json.loads(result.get_attribute("data-kb-outcome")) == {"total": 1 + 5 + 3 + 4}
            assert not wait.count()
            # started: numbers on which the resolver takes long (it loops: stopped at the limit) say «Calculando…»
            pg.fill('input[name="b"]', "19")
            pg.wait_for_function(busy, timeout=30_000)
            pg.fill('input[name="c"]', "19")
            assert not result.locator("dl").is_visible()  # the old answer hidden at once
            wait.wait_for(timeout=2_000)
            assert result.inner_text().strip() == pgettext(lang, "site", "calc_working")
            pg.wait_for_function(busy, timeout=15_000)
            assert json.loads(result.get_attribute("data-kb-outcome")) == {"error": "resolver-too-long"}
            pg.close()
            signal.clear()
        offline.append(True)  # offline, the game not saved: the runtime cannot be read
        for lang in ("es", "en"):
            pg = context.new_page()
            pg.on("pageerror", lambda e: errors.append(str(e)))
            pg.goto(f"{base}/{lang}/g/sum.html")
            pg.wait_for_selector("form[data-kb-ready]")
            result = pg.locator(".kb-calc-result")
            pg.fill('input[name="d"]', "6")
            pg.wait_for_function(busy, timeout=15_000)
            assert json.loads(result.get_attribute("data-kb-outcome")) == {"error": "runtime-unreadable"}
            assert result.inner_text().strip() == pgettext(lang, "site", "calc_no_runtime")
            assert result.locator("[role=alert]").count() == 1
            assert pg.input_value('input[name="d"]') == "6"
            pg.close()
        assert errors == []
    context.close()


@pytest.mark.browser
def _without_marks(text: str) -> str:
    """An example's words without the ¶ buttons kb-table.js adds once the page has loaded and the line breaks around
    them (a race with the reading)."""
    return " ".join(re.sub(r"¶\d*", " ", text).split())


def test_a_runtime_fetched_that_does_not_start_is_not_called_no_connection(tree, monkeypatch, chromium) -> None:
    """The runtime's main file fetched but broken (200, not a script): the form says the calculator could not start
    in this browser, not "no connection"; the request failing (offline) still says no connection. Either way the
    worked example stays on the page and the numbers in the fields. Spanish and English, at a phone's size."""
    from conftest import MKDOCS, cli, served
    from test_calc_site import RUNTIME

    if RUNTIME is None:
        pytest.skip("Pyodide is not installed (tests/test_calc_py.py requires it in CI)")
    root = tree(LOOPS_FAR)
    monkeypatch.setenv("KB_PYODIDE_DIR", str(RUNTIME))
    monkeypatch.setenv("KB_EXAMPLE_SECONDS", "1")
    site = root.parent / "site"
    code, out, err = cli("--content", str(root), "build", "--config", MKDOCS, "--site-dir", str(site))
    assert code == 0, out + err
    assert (site / "kb-py" / "pyodide.js").is_file()
    errors: list[str] = []
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                   service_workers="block")
    busy = "!document.querySelector('form[data-kb-resolver]').dataset.kbBusy"
    broken = ("broken", lambda r: r.fulfill(status=200, content_type="text/javascript", body="<html>}{ not a script"))
    offline = ("offline", lambda r: r.abort())
    with served(site) as base:
        for lang in ("es", "en"):
            for how, answer in (broken, offline):
                pg = context.new_page()
                pg.on("pageerror", lambda e: errors.append(str(e)))
                pg.route("**/kb-py/pyodide.js", answer)
                pg.goto(f"{base}/{lang}/g/sum.html")
                pg.wait_for_selector("form[data-kb-ready]")
                example = _without_marks(pg.locator(".kb-example").inner_text())
                pg.locator('input[name="d"]').focus()  # the keyboard alone
                pg.keyboard.press("Control+a")
                pg.keyboard.type("6")
                pg.wait_for_function(busy, timeout=60_000)
                result = pg.locator(".kb-calc-result")
                outcome, key = (("runtime-not-started", "calc_cannot_start") if how == "broken"
                                else ("runtime-unreadable", "calc_no_runtime"))
                assert json.loads(result.get_attribute("data-kb-outcome")) == {"error": outcome}, (lang, how)
                assert result.inner_text().strip() == pgettext(lang, "site", key)
                assert result.locator("[role=alert]").count() == 1
                assert _without_marks(pg.locator(".kb-example").inner_text()) == example
                assert pg.locator(".kb-example").is_visible()
                assert pg.input_value('input[name="d"]') == "6"
                pg.close()
        assert errors == []
    context.close()
