"""English game words in a Spanish calculator's steps (audit-a11y L8): a glossary term the content keeps in its English
wording (``do_not_translate``, the same form in both languages: ``Roll-Off``) is marked ``lang="en"`` where a step shows
it, in the page as built (calc.py) and in the answers kb-calc.js shows, so that a Spanish screen reader says it in
English. Text stays text: a word is put in a span built as an element, never parsed as markup."""

from __future__ import annotations

import json
import shutil
from pathlib import Path


from conftest import served
from kb.api import KnowledgeBase
from kb.site.calc import _result_html, foreign_words, marked_html
from test_calc_browser import browser, page, playwright  # noqa: F401

ROOT = Path(__file__).resolve().parents[1]
ASSET = ROOT / "kb" / "site" / "assets" / "kb-calc.js"


def test_the_words_kept_in_english_are_a_spanish_pages_english_words() -> None:
    kb = KnowledgeBase.load(ROOT / "content")
    words = foreign_words(kb, "starcraft-tmg", "es")["en"]
    assert {"Roll-Off", "Roll-Offs", "First Player Marker"} <= set(words)
    assert "tirada enfrentada" not in words  # a Spanish form of the same term
    assert len(words[0]) >= len(words[-1])  # longest first: «Roll-Offs» before «Roll-Off»
    assert foreign_words(kb, "starcraft-tmg", "en") == {}


def test_a_step_marks_the_english_words_and_escapes_the_rest() -> None:
    foreign = {"en": ["Roll-Offs", "Roll-Off", "<b>"]}
    assert marked_html("Gana el Roll-Off <i>; dos Roll-Offs, no Roll-Offing", foreign) == (
        'Gana el <span lang="en">Roll-Off</span> &lt;i&gt;; dos <span lang="en">Roll-Offs</span>, no Roll-Offing')
    assert marked_html("un <b> aquí", foreign) == 'un <span lang="en">&lt;b&gt;</span> aquí'
    row = ["{}", ["Se hace un Roll-Off."], [["Gana", "Ana"]], None, None]
    assert '<li>Se hace un <span lang="en">Roll-Off</span>.</li>' in _result_html(row, "es", foreign)
    assert "<li>Se hace un Roll-Off.</li>" in _result_html(row, "es", {})


def _js(key: str, data: object) -> str:
    return f"(window.KB_CALC=window.KB_CALC||{{}})[{json.dumps(key)}]={json.dumps(data)};\n"


def test_the_page_marks_the_english_words_of_the_steps_it_shows(page, tmp_path: Path) -> None:  # noqa: F811
    shutil.copy(ASSET, tmp_path / "kb-calc.js")
    head = {"fields": [{"name": "x", "label": "X", "kind": "choice", "values": ["a", "b"], "n": 2}], "odds": None,
            "shard": 2, "words": {"calc_steps": "Pasos"}}
    strings = ["{}", "Se hace un Roll-Off <img src=x onerror=alert(1)>.", "Nada en inglés."]
    shard = {"strings": strings, "outcomes": [[0, [1], [], None, None], [0, [2], [], None, None]], "index": [0, 1]}
    (tmp_path / "h.js").write_text(_js("h.js", head), encoding="utf-8")
    (tmp_path / "h-0.js").write_text(_js("h-0.js", shard), encoding="utf-8")
    foreign = json.dumps({"en": ["Roll-Off", "<img"]}).replace('"', "&quot;")
    (tmp_path / "index.html").write_text(
        '<!doctype html><html lang="es"><title>t</title>'
        f'<form data-kb-resolver="r" data-kb-data="h.js" data-kb-file="h.js" data-kb-foreign="{foreign}">'
        '<select data-kb-field="0" id="f"><option>a</option><option>b</option></select>'
        '<div data-kb-outcome="{}"></div></form><script src="kb-calc.js"></script>', encoding="utf-8")
    with served(tmp_path) as url:
        page.goto(url + "/index.html")
        step = page.locator(".kb-calc-steps li")
        page.wait_for_function("document.querySelector('.kb-calc-steps li')")
        assert step.inner_text() == strings[1]
        assert page.locator('.kb-calc-steps li span[lang="en"]').all_inner_texts() == ["Roll-Off", "<img"]
        assert page.locator(".kb-calc-steps img").count() == 0
        page.focus("#f")
        page.keyboard.press("ArrowDown")
        page.wait_for_function("document.querySelector('.kb-calc-steps li').textContent === 'Nada en inglés.'")
        assert page.locator(".kb-calc-steps span").count() == 0
    assert page.kb_errors == []
