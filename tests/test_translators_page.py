"""The translators' page (kb/site/translators.py; docs/translators.md, "The translation status page").

For a stale field it shows what changed in the Spanish word by word (``<del>``/``<ins>``, escaped: a Spanish
``<script>`` or ``**bold**`` is shown as text), each changed part named as the PO file names it, beside the
English to review; shares are rounded down (never 100 % current with a stale field); at 390×844 the figures
and the stale field are on screen without scrolling sideways, in both languages, reached by the keyboard.
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Iterator

import markdown
import pytest

from conftest import built_site, served
from kb.api import KnowledgeBase
from kb.core.model import LANGS
from kb.i18n.po import unit_labels
from kb.i18n.status import source_hash
from kb.i18n.units import split
from kb.mkdocs_defaults import EXTENSIONS
from kb.site.pages import build_site
from kb.site.translators import share, word_diff
from test_browser import axe_script, launch_chromium  # noqa: F401  (axe_script: a fixture)

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "site" / "content"

ES = ("Durante la activación, una miniatura tira 2d6:\n\n"
      "- Con 8 o más, acierta.\n- Con 12, acierta dos veces.\n- Sin línea de visión no dispara.\n")
EN = ("During the activation, a model rolls 2d6:\n\n"
      "- On 8 or more, it hits.\n- On 12, it hits twice.\n- Without line of sight it cannot shoot.\n")
NEW_ITEM = "- Con 12, acierta dos veces y elige otro objetivo."
HOSTILE = "Para disparar hace falta <script>alert(1)</script> y **negrita** [x](javascript:y) {: onclick=z}."


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "commit.gpgsign=false",
                    *args], cwd=cwd, check=True, capture_output=True)


def _block(text: str) -> str:
    return "".join(f"    {line}\n" if line else "\n" for line in text.splitlines())


def stale_content(tmp: Path) -> Path:
    """The site fixture in ``tmp/content`` under git, then two Spanish edits not committed: list item 2 of 3 of
    ``mini.shooting``'s text (its English lines up with the Spanish) and the summary, to a hostile text."""
    if shutil.which("git") is None:
        pytest.skip("git not installed: cannot build a history")
    root = tmp / "content"
    shutil.copytree(FIXTURE, root)
    path = root / "mini" / "rules" / "shooting.yaml"
    text = path.read_text(encoding="utf-8")
    start, end = text.index("text:\n"), text.index("see_also:")
    text = text[:start] + f"text:\n  es: |\n{_block(ES)}  en: |\n{_block(EN)}" + text[end:]
    text = re.sub(r"    text: \w+", f"    text: {source_hash(ES)}", text)
    path.write_text(text, encoding="utf-8")
    _git(tmp, "init", "-q")
    _git(tmp, "add", "content")
    _git(tmp, "commit", "-q", "-m", "first")
    text = text.replace("- Con 12, acierta dos veces.", NEW_ITEM)
    text = text.replace("Para disparar hace falta línea de visión y sacar 8 o más con 2d6.", json.dumps(HOSTILE))
    path.write_text(text, encoding="utf-8")
    return root


def _html(md: str) -> str:
    return markdown.markdown(md.split("\n---\n", 1)[-1], extensions=list(EXTENSIONS),
                             extension_configs={k: v for k, v in EXTENSIONS.items() if v})


def _field(html: str, field: str) -> str:
    """The part of the page about ``mini.shooting``'s ``field``: from its heading to the next heading."""
    start = html.index(f"<code>mini.shooting</code> · {{}} <code>{field}</code>".split("{}")[0])
    start = html.index(f"<code>{field}</code>", start)
    return html[start:html.find("<h4", start) if "<h4" in html[start:] else len(html)]


@pytest.fixture(scope="module")
def stale(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return stale_content(tmp_path_factory.mktemp("translators"))


@pytest.mark.parametrize("lang", LANGS)
def test_a_changed_list_item_is_shown_as_a_word_diff_named_as_in_the_po_beside_its_english(stale: Path,
                                                                                             lang: str) -> None:
    kb = KnowledgeBase.load(stale, use_cache=False)
    page = build_site(kb, [], lang).page("translators.md")
    assert page is not None
    part = _field(_html(page.markdown), "text")
    # the PO calls the message text|p3 "list item 2 of 3": the page names it so, and shows only that part
    assert unit_labels(split(ES))[2] == "list item 2 of 3"
    name = {"es": "Elemento 2 de 3 de la lista · mensaje del PO", "en": "List item 2 of 3 · PO message"}[lang]
    assert f"<strong>{name} <code>text|p3</code></strong>" in part
    assert "Con 12, acierta dos veces <ins>y elige otro objetivo</ins>." in part
    assert '<span lang="en">On 12, it hits twice.</span>' in part  # the English to review, beside it
    assert "Con 8 o más" not in part and "On 8 or more" not in part  # the unchanged parts are not repeated
    es, en = part.index('class="kb-tr-es"'), part.index('class="kb-tr-en"')
    assert es < part.index("<ins>") < en


def test_a_catalog_word_with_a_stray_placeholder_is_shown_as_written(stale: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A translator's ``item`` word holding braces other than ``{n}`` and ``{of}`` (``{x}``, a ``{n.__class__}``
    that ``str.format`` would look up): the page still builds, the two known ones filled, the rest as written."""
    import kb.site.translators as translators

    said = translators.pgettext
    stray = "Item {n} of {of} {x} {n.__class__} {0}"
    monkeypatch.setattr(translators, "pgettext",
                        lambda lang, context, key: stray if (context, key) == ("translators", "item")
                        else said(lang, context, key))
    kb = KnowledgeBase.load(stale, use_cache=False)
    page = build_site(kb, [], "en").page("translators.md")
    assert page is not None and "Item 2 of 3 {x} {n.__class__} {0} · PO message" in html.unescape(page.markdown)
    assert "{x}" not in page.markdown  # escaped, text: never an attribute list of the Markdown


@pytest.mark.parametrize("lang", LANGS)
def test_markup_in_the_spanish_shows_as_text_in_the_diff(stale: Path, lang: str) -> None:
    kb = KnowledgeBase.load(stale, use_cache=False)
    page = build_site(kb, [], lang).page("translators.md")
    assert page is not None
    html = _html(page.markdown)
    part = _field(html, "summary")
    assert ("hace falta <del>línea de visión</del><ins>&lt;script&gt;alert(1)&lt;/script&gt;</ins> y "
            "<del>sacar 8 o más con 2d6</del><ins>&#42;&#42;negrita&#42;&#42; &#91;x&#93;(javascript:y) "
            "&#123;: onclick=z&#125;</ins>.") in part
    assert "<script" not in html and "<strong>negrita" not in html and "javascript:y\"" not in html
    assert "onclick" not in re.sub(r"&#123;: onclick=z&#125;", "", html)
    assert word_diff("a <b>", "a <i>") == "a &lt;<del>b</del><ins>i</ins>&gt;"


def test_shares_are_rounded_down_and_never_read_100_percent_current_with_a_stale_field() -> None:
    from kb.site.structure import SiteContext
    from kb.site.translators import translators_page

    assert share(2280, 2283) == "2280 (99 %)"  # rounded, 99.87 % read 100 % (the audit's 2283 fields, 3 stale)
    assert share(3, 2283) == "3 (< 1 %)"
    assert share(0, 2283) == "0 (0 %)" and share(4, 4) == "4 (100 %)" and share(0, 0) == "0 (0 %)"
    kb = KnowledgeBase.load(FIXTURE, use_cache=False)
    report = {"games": {"mini": {"lang": "en", "fields": 2283, "current": 2280, "stale": 3, "missing": 0}},
              "pending": []}
    for lang in LANGS:
        body = translators_page(SiteContext(kb, {}, lang), report).markdown
        rows = [line for line in body.splitlines() if line.startswith("| ") and "2283" in line]
        assert len(rows) == 2 and all("2280 (99 %)" in r and "3 (< 1 %)" in r and "100 %" not in r for r in rows)


def test_without_the_earlier_spanish_the_whole_field_and_its_english_are_shown(tmp_path: Path) -> None:
    root = tmp_path / "content"  # no git: the history cannot give the earlier Spanish
    shutil.copytree(FIXTURE, root)
    path = root / "mini" / "rules" / "shooting.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("sacar 8 o más", "sacar 9 o más"), encoding="utf-8")
    kb = KnowledgeBase.load(root, use_cache=False)
    for lang, now in (("es", "Español ahora"), ("en", "Spanish now")):
        page = build_site(kb, [], lang).page("translators.md")
        assert page is not None
        part = _field(_html(page.markdown), "summary")
        assert f"<em>{now}:</em>" in part and "sacar 9 o más con 2d6" in part and "<ins>" not in part
        assert "Shooting needs line of sight and a roll of 8 or more on 2d6." in part


# ---------------------------------------------------------------- in a browser, at 390×844


@pytest.fixture(scope="module")
def phone_base(stale: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with served(built_site(stale, tmp_path_factory.mktemp("trsite") / "site")) as url:
        yield url


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_on_a_phone_the_stale_figures_and_fields_need_no_sideways_scrolling(phone_base: str, lang: str) -> None:
    chromium = launch_chromium()
    browser = next(chromium)
    context = browser.new_context(viewport={"width": 390, "height": 844})  # keyboard only: no touch
    try:
        pg = context.new_page()
        pg.goto(f"{phone_base}/{lang}/translators.html")
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
        stale = {"es": "Desfasados:", "en": "Stale:"}[lang]
        cell = pg.locator(".kb-tr-counts tr").last.locator("td", has_text=stale)  # the total row
        assert cell.is_visible()
        box = cell.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert re.search(r"2 \(\d+ %\)", cell.inner_text())
        # Tab, as a keyboard user does, to the stale field's link: it and its diff are in view, the English under it
        for _ in range(60):
            pg.keyboard.press("Tab")
            if pg.evaluate("document.activeElement.closest('h4') !== null"):
                break
        else:
            pytest.fail("no stale field's heading link is reached by Tab")
        link = pg.evaluate("(() => { const r = document.activeElement.getBoundingClientRect();"
                           " return [r.left, r.right, r.top, r.bottom]; })()")
        assert link[0] >= 0 and link[1] <= 390 and 0 <= link[2] and link[3] <= 844
        assert pg.locator(".kb-tr-es ins").count() >= 1  # the sanitiser keeps the diff's marks
        for pair in pg.locator(".kb-tr-pair").all():
            es, en = pair.locator(".kb-tr-es"), pair.locator(".kb-tr-en")
            if es.count() and en.count():
                a, b = es.bounding_box(), en.bounding_box()
                assert a is not None and b is not None
                assert b["y"] >= a["y"] + a["height"] - 1 and a["x"] + a["width"] <= 390 and b["x"] + b["width"] <= 390
        assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        context.close()
        next(chromium, None)


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_axe_finds_nothing_serious_on_the_page_with_its_diff(phone_base: str, axe_script: str,  # noqa: F811
                                                             lang: str) -> None:
    from test_browser import _serious

    chromium = launch_chromium()
    browser = next(chromium)
    found = []
    try:
        for viewport in ({"width": 390, "height": 844}, {"width": 1280, "height": 900}):
            context = browser.new_context(viewport=viewport)
            pg = context.new_page()
            pg.goto(f"{phone_base}/{lang}/translators.html")
            pg.wait_for_selector('html[data-kb-table="ready"]', state="attached")
            found += [f"{viewport['width']}px: {v}" for v in _serious(pg, axe_script)]
            context.close()
    finally:
        next(chromium, None)
    assert found == []


FORGED_ID = ('bad`\n\n!!! danger "FORGED <b>x</b>"\n    forged body <a href="https://evil.example/">log in here</a>\n\n'
             '# Forged heading {: onclick="window.pwned=1" }\n\nkb: forged')
"""An example id that breaks the schema (the build goes on) written to end a code span and start blocks: the
field ``examples[<id>].title`` is listed on the page, its English left out (the audit's hostile id)."""


@pytest.mark.parametrize("lang", LANGS)
def test_a_field_name_with_backticks_and_line_breaks_shows_as_text_on_one_line(tmp_path: Path, lang: str) -> None:
    root = tmp_path / "content"
    shutil.copytree(FIXTURE, root)
    path = root / "mini" / "rules" / "shooting.yaml"
    text = path.read_text(encoding="utf-8").replace("id: eight-or-more", f"id: {json.dumps(FORGED_ID)}")
    path.write_text(text.replace(", en: Rolling 8 or more on 2d6}", "}"), encoding="utf-8")
    kb = KnowledgeBase.load(root, use_cache=False)
    page = build_site(kb, [], lang).page("translators.md")
    assert page is not None
    html = _html(page.markdown)
    # no live markup from the id: one heading (the page's), no admonition, no bold, no link out, no attribute
    assert html.count("<h1") == 1 and "admonition" not in html and "<b>" not in html
    assert not re.search(r"<[a-z][^>]*\s(on\w+=|href=\"https://evil)", html)
    item = next(line for line in html.splitlines() if "<li>" in line and "bad" in line)  # the missing field, one line
    assert re.search(r"<code>examples&#91;bad&#96;\s+!!! danger \"FORGED &lt;b&gt;x&lt;/b&gt;\" .*kb: forged&#93;"
                     r"\.title</code>", item)


@pytest.mark.parametrize("lang", LANGS)
def test_control_and_bidi_characters_of_the_spanish_in_history_show_as_escapes(tmp_path: Path, lang: str) -> None:
    """The earlier Spanish comes from git, not from the loader: it is cleaned as the loader cleans today's text, so
    an unclosed right-to-left override in it cannot reverse the Spanish now shown after it (the audit's case)."""
    if shutil.which("git") is None:
        pytest.skip("git not installed: cannot build a history")
    from kb.i18n.history import History
    from kb.i18n.report import status_report

    root = tmp_path / "content"
    shutil.copytree(FIXTURE, root)
    path = root / "mini" / "rules" / "shooting.yaml"
    old = "Para disparar hace falta línea de visión y sacar 8 o más con 2d6."
    text = path.read_text(encoding="utf-8").replace("    summary: be5f30261e63\n", "")  # written beside the old one
    path.write_text(text.replace(old, '"Con 4 o más impacta \\u202e siempre \\e[31m y\\u200b."'), encoding="utf-8")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "content")
    _git(tmp_path, "commit", "-q", "-m", "old Spanish with control characters")
    path.write_text(text.replace(old, "Con 4 o más impacta nunca con 6 o menos."), encoding="utf-8")
    kb = KnowledgeBase.load(root, use_cache=False)
    row = next(r for r in status_report(kb, history=History())["pending"]
               if (r["entry"], r["field"]) == ("mini.shooting", "summary"))
    assert row["previous"] == "Con 4 o más impacta \\u202e siempre \\x1b[31m y\\u200b."  # kb i18n status --json, export
    page = build_site(kb, [], lang).page("translators.md")
    assert page is not None
    assert not re.search("[\x00-\x08\x0b-\x1f\u200b\u202a-\u202e]", page.markdown)
    assert ("impacta <del>&#92;u202e siempre &#92;x1b&#91;31m y&#92;u200b</del><ins>nunca con 6 o menos</ins>."
            in _field(_html(page.markdown), "summary"))


# ---------------------------------------------------------------- long texts: the diff's work is bounded

VOCABULARY = ("el la de que y en un una los las se con por para al lo como más pero sus le ya o este sí porque "
              "esta entre cuando muy sin sobre también me hasta hay donde quien desde todo nos durante")


def _prose(words: int, seed: int) -> str:
    import random

    pick, vocabulary = random.Random(seed).choice, VOCABULARY.split()
    return " ".join(pick(vocabulary) for _ in range(words))


def _searches(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of the first text's range in each search difflib makes for a longest match (its work grows
    with it), recorded from now on."""
    import difflib

    seen: list[int] = []
    search = difflib.SequenceMatcher.find_longest_match

    def counted(self: difflib.SequenceMatcher[str], alo: int = 0, ahi: int | None = None, blo: int = 0,
                bhi: int | None = None) -> difflib.Match:
        seen.append((len(self.a) if ahi is None else ahi) - alo)
        return search(self, alo, ahi, blo, bhi)

    monkeypatch.setattr(difflib.SequenceMatcher, "find_longest_match", counted)
    return seen


def test_diff_steps_make_the_old_text_into_the_new_exact_or_coarse() -> None:
    from kb.i18n.units import MAX_COMPARED, opcodes

    for a, b in ((list("abcdef"), list("abXYef")), (list("aaaa"), list("aa")), ([], list("ab")), (list("ab"), []),
                 (_prose(3000, 1).split(), _prose(3000, 2).split()), (_prose(50, 3).split(), _prose(60, 4).split())):
        steps, exact = opcodes(a, b)
        rebuilt = [x for tag, i1, i2, j1, j2 in steps for x in (a[i1:i2] if tag == "equal" else b[j1:j2])]
        assert rebuilt == b and [s[1:3] for s in steps] == list(zip([0] + [s[2] for s in steps[:-1]],
                                                                    [s[2] for s in steps]))
        assert exact == (len(a) < 3000)
    steps, exact = opcodes(list("xabcdy"), list("xdcbay"), limit=2)  # past the bound: the middle is one change
    assert (steps, exact) == ([("equal", 0, 1, 0, 1), ("replace", 1, 5, 1, 5), ("equal", 5, 6, 5, 6)], False)
    assert MAX_COMPARED < 3000 * 3000 // 4  # a rewrite of 3,000 words is past it


def _long_stale(tmp: Path, old: str, new: str) -> KnowledgeBase:
    """The fixture with ``mini.shooting``'s summary ``old`` in git, then ``new`` (not committed)."""
    if shutil.which("git") is None:
        pytest.skip("git not installed: cannot build a history")
    root = tmp / "content"
    shutil.copytree(FIXTURE, root)
    path = root / "mini" / "rules" / "shooting.yaml"
    summary = "Para disparar hace falta línea de visión y sacar 8 o más con 2d6."
    text = path.read_text(encoding="utf-8").replace("    summary: be5f30261e63\n", "")  # written beside the old one
    path.write_text(text.replace(summary, json.dumps(old)), encoding="utf-8")
    _git(tmp, "init", "-q")
    _git(tmp, "add", "content")
    _git(tmp, "commit", "-q", "-m", "a long summary")
    path.write_text(text.replace(summary, json.dumps(new)), encoding="utf-8")
    return KnowledgeBase.load(root, use_cache=False)


@pytest.mark.parametrize("lang", LANGS)
def test_a_long_rewrite_is_shown_whole_with_a_note_without_comparing_word_by_word(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    old, new = f"Antes: {_prose(2500, 5)}.", f"Antes: {_prose(2500, 6)}."  # 2,500 words (15 KB) rewritten
    kb = _long_stale(tmp_path, old, new)
    searches = _searches(monkeypatch)
    page = build_site(kb, [], lang).page("translators.md")
    assert page is not None
    assert max(searches, default=0) <= 1  # the field's one paragraph a side is matched; its words are never searched
    part = _field(_html(page.markdown), "summary")
    note = {"es": "Demasiado largo para compararlo palabra a palabra", "en": "Too long to compare word by word"}[lang]
    assert f"<em>{note}" in part and part.index(note) < part.index("<del>")  # set apart from the Spanish
    assert f"Antes: <del>{old[7:-1]}</del><ins>{new[7:-1]}</ins>." in part  # the old and the new, whole


@pytest.mark.parametrize("lang", LANGS)
def test_a_long_paragraph_changed_in_one_place_is_compared_only_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    old = _prose(3000, 7)  # 18 KB
    words = old.split()
    new = " ".join(words[:1500] + ["nuevo", "texto"] + words[1501:])
    kb = _long_stale(tmp_path, old, new)
    searches = _searches(monkeypatch)
    page = build_site(kb, [], lang).page("translators.md")
    assert page is not None
    assert searches and max(searches) <= 2  # only the words that differ are compared
    part = _field(_html(page.markdown), "summary")
    assert f"<del>{words[1500]}</del><ins>nuevo texto</ins>" in part and "<del>" not in part.split("</del>", 1)[1]
    assert "Too long" not in part and "Demasiado largo" not in part


# ---------------------------------------------------------------- the guide, linked at the project's repository

GUIDE_CODE = "<code>docs/translators.md</code>"


def _how(repo_url: str | None, lang: str) -> str:
    """The HTML of the page's paragraph that names the guide, for a site whose mkdocs.yml says ``repo_url``."""
    from kb.site.structure import SiteContext
    from kb.site.translators import translators_page

    kb = KnowledgeBase.load(FIXTURE, use_cache=False)
    body = _html(translators_page(SiteContext(kb, {}, lang, repo_url=repo_url), {"games": {}, "pending": []}).markdown)
    return next(p for p in body.split("</p>") if GUIDE_CODE in p)


@pytest.mark.parametrize("lang", LANGS)
def test_the_guide_is_linked_at_the_repository_mkdocs_yml_names(lang: str) -> None:
    """With ``repo_url`` the guide's name links to the file in that repository (the address escaped into the
    attribute); without one, or with one that is not a plain http(s) address, it stays the name, as code."""
    linked = f'<a href="https://example.org/o/r&amp;x/blob/HEAD/docs/translators.md">{GUIDE_CODE}</a>'
    assert linked in _how("https://example.org/o/r&x/", lang)
    for url in (None, "", "javascript://x/%0aalert(1)", "ftp://example.org/o/r", 'https://example.org/r"><script>',
                "https://example.org/o/r x", "https://example.org/o/r?tab=1", "https:///o/r", "https://[::1/r"):
        how = _how(url, lang)
        assert GUIDE_CODE in how and "<a " not in how and "script" not in how, (url, how)


MARKDOWN_URL = "https://x.example/a_b_*c*[e](javascript:alert(1))![i](https://i.example/p.png)&amp;{:onclick=alert(1)}"
"""A plain http(s) address whose characters are Markdown (audit-hostile3 6): a link, an image, emphasis, an attribute list."""


@pytest.mark.parametrize("lang", LANGS)
def test_markdown_in_the_repository_address_stays_part_of_the_guide_link(lang: str) -> None:
    """The address goes into the page's Markdown escaped for Markdown too: the paragraph keeps its one link, to the
    guide at exactly that address, and its words after it (the link and emphasis patterns ran inside the attribute)."""
    from html.parser import HTMLParser

    class Links(HTMLParser):
        def __init__(self) -> None:
            super().__init__(convert_charrefs=True)
            self.hrefs: list[str | None] = []
            self.text: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.hrefs += [v for k, v in attrs if tag == "a" and k == "href"]

        def handle_data(self, data: str) -> None:
            self.text.append(data)

    parsed = Links()
    parsed.feed(_how(MARKDOWN_URL, lang))
    assert parsed.hrefs == [f"{MARKDOWN_URL}/blob/HEAD/docs/translators.md"], parsed.hrefs
    after = "docs/translators.md, en el repositorio" if lang == "es" else "docs/translators.md in the project"
    assert after in "".join(parsed.text)


def test_the_repository_in_mkdocs_yml_reaches_the_page_and_its_kept_copy(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The plugin hands mkdocs.yml's ``repo_url`` to the page, and the pages kept for a later command are kept per
    address: the build after one without ``repo_url`` does not show the earlier build's link."""
    from mkdocs.config import load_config

    from kb.mkdocs_plugin import KnowledgeBasePlugin

    shutil.copytree(FIXTURE, tmp_path / "content")
    monkeypatch.setenv("KB_CONTENT", str(tmp_path / "content"))
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    config_file = str(Path(__file__).parents[1] / "mkdocs.yml")
    shown = []
    for repo_url in ("https://example.org/o/r", None):
        config = load_config(config_file, site_dir=str(tmp_path / "site"), repo_url=repo_url)
        config = config.plugins.on_config(config)
        plugin = next(p for p in config.plugins.values() if isinstance(p, KnowledgeBasePlugin))
        page = plugin._build.site.page("translators.md")  # the plugin's own state (the test reads it)
        assert page is not None
        shown.append("https://example.org/o/r/blob/HEAD/docs/translators.md" in page.markdown)
    assert shown == [True, False]
