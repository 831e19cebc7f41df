"""The sample pack ``kb init`` makes (one game), as a pack author from another group reads its output and its site:
an example id written twice, the Spanish side in Spanish, and a one-game site without a game's name repeated."""

from __future__ import annotations

import io
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from kb.cli.main import run


def kb(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    return run(list(argv), out, err), out.getvalue(), err.getvalue()


@pytest.fixture
def pack(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.delenv("KB_CONTENT", raising=False)
    monkeypatch.setenv("KB_CACHE", str(tmp_path / "cache"))
    code, _, err = kb("init", str(tmp_path / "pack"), "--game", "skirmish", "--name-es", "Escaramuza",
                      "--name-en", "Skirmish")
    assert code == 0, err
    monkeypatch.chdir(tmp_path / "pack")
    return tmp_path / "pack"


DUPLICATE = """\
  - id: tie-rolled-again
    title: {es: Copia, en: Copy}
    mechanic: dice.initiative
    given:
      rolls:
        - {ana: 1, bea: 4}
    expect: {order: [ana, bea], rerolls: 3}
"""
"""A second example with the sample's first example's id, one that would fail if it were run."""


def test_an_example_id_written_twice_checks_the_first_copy_and_reports_only_the_second(pack: Path) -> None:
    """The duplicate's result took the first copy's place (its trace, its "NO COMPROBADO" on the page, its failure in
    kb test under the shared id): now the first copy is run alone and the duplicate is only ``duplicate-item-id``."""
    rule = pack / "content/skirmish/rules/initiative-roll.yaml"
    first = rule.read_text(encoding="utf-8")
    rule.write_text(first + DUPLICATE, encoding="utf-8")
    line = first.count("\n") + 1
    code, out, _ = kb("check")
    assert code == 1 and (f"initiative-roll.yaml:{line}:9: error[duplicate-item-id]: duplicate example id "
                          "'tie-rolled-again' in this entry (first at line 14): the first is the one run and shown, "
                          "this copy is left out") in out, out
    code, out, _ = kb("test", "--json")
    mine = [r for r in json.loads(out) if r.get("entry") == "skirmish.initiative-roll"]
    assert [(r["example"], r["status"], r["line"]) for r in mine] == [("tie-rolled-again", "passed", 14)], mine
    code, out, _ = kb("show", "skirmish.initiative-roll", "--lang", "es")
    assert "Tiradas: Ana: 4 y Bea: 4." in out and "Comprobado" in out, out
    assert "NO COMPROBADO" not in out and "Copia" not in out and "Ana: 1 y Bea: 4" not in out, out


@pytest.fixture(scope="module")
def sample_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``kb init``'s one-game sample, built once (``kb build``) into its ``site/``."""
    folder = tmp_path_factory.mktemp("sample")
    with pytest.MonkeyPatch.context() as mp:
        mp.delenv("KB_CONTENT", raising=False)
        mp.setenv("KB_CACHE", str(folder / "cache"))
        code, _, err = kb("init", str(folder / "pack"), "--game", "skirmish", "--name-es", "Escaramuza",
                          "--name-en", "Skirmish")
        assert code == 0, err
        mp.chdir(folder / "pack")
        code, out, err = kb("build")
    assert code == 0, out + err
    return folder / "pack" / "site"


class _Visible(HTMLParser):
    """A page's text as a reader meets it: its text outside scripts and styles, and the attributes read aloud or shown."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.hidden = 0
        self.english: list[str] = []  # the open elements marked lang="en" (the 404 page's English part), by tag

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if ("lang", "en") in attrs and tag != "html":
            self.english.append(tag)
        self.hidden += tag in ("script", "style")
        if not self.english:
            self.parts += [v for k, v in attrs if k in ("title", "aria-label", "placeholder", "alt") and v]

    def handle_endtag(self, tag: str) -> None:
        self.hidden -= tag in ("script", "style")
        if self.english and self.english[-1] == tag:
            self.english.pop()

    def handle_data(self, data: str) -> None:
        if not self.hidden and not self.english:
            self.parts.append(data)


def visible(page: Path, title: bool = True) -> str:
    """The page's visible text; without its ``<title>`` when ``title`` is false (the 404 page's names both languages,
    the page's own first: checked apart)."""
    reader = _Visible()
    text = page.read_text(encoding="utf-8")
    reader.feed(text if title else re.sub(r"<title>.*?</title>", "", text, count=1, flags=re.S))
    return re.sub(r"\s+", " ", " ".join(reader.parts))


def _catalog(lang: str) -> dict[tuple[str | None, str], str]:
    from babel.messages.pofile import read_po

    from kb.core.locale import catalog_path

    with catalog_path(lang).open("rb") as fh:
        return {(m.context, m.id): m.string for m in read_po(fh, locale=lang) if m.id and isinstance(m.string, str)}


def english_labels() -> set[str]:
    """The engine's own English words: each English msgstr of kb/locale that differs from the Spanish one (cut at
    its placeholders), but the languages' own names (the language switcher's), and Material's 404 heading."""
    spanish, found = _catalog("es"), {"Not found"}
    for key, text in _catalog("en").items():
        if text != spanish.get(key) and key[1] not in ("lang_en", "lang_es"):
            found |= {part for part in (p.strip(" .,:;·—()") for p in re.split(r"\{[^}]*\}", text)) if len(part) >= 3}
    return found


def test_the_spanish_pages_of_the_sample_show_no_english_label_of_the_engine(sample_site: Path) -> None:
    """Every page in Spanish (``lang="es"``: es/ and the site's top 404.html) shows none of the engine's English
    labels (the 404 page's part marked ``lang="en"`` aside); the 404 page's heading was Material's «404 - Not found»
    on the Spanish side (a pack author's audit)."""
    labels = english_labels()
    pages = [p for p in sample_site.rglob("*.html") if 'lang="es"' in p.read_text(encoding="utf-8")[:400]]
    assert len(pages) > 10 and sample_site / "404.html" in pages
    found = {(p.relative_to(sample_site).as_posix(), label) for p in pages for label in labels
             if re.search(rf"(?<!\w){re.escape(label)}(?!\w)", visible(p, title=p.name != "404.html"))}
    assert found == set(), sorted(found)
    assert _title(sample_site / "404.html").startswith("Página no encontrada · Page not found")
    for page in (sample_site / "404.html", sample_site / "en" / "404.html"):  # both languages, each marked as such
        text = page.read_text(encoding="utf-8")
        assert "404 - Not found" not in text and '<section lang="es">' in text and '<section lang="en">' in text, page


def _title(page: Path) -> str:
    found = re.search(r"<title>(.*?)</title>", page.read_text(encoding="utf-8"))
    assert found is not None, page
    return found.group(1)


def test_a_one_game_sites_titles_say_the_games_name_once(sample_site: Path) -> None:
    """The sample's site is named after its only game: «Disparar · Escaramuza - Escaramuza», «Glosario — Escaramuza
    - Escaramuza» and «Escaramuza - Escaramuza» said it two or three times. Now the site's name alone says it (a site of
    two games keeps «Entrada · Juego - Sitio»: tests/test_site.py, test_titles_name_the_game_and_the_site_in_the_page_language)."""
    for lang, game, shoot, glossary, quickref in (("es", "Escaramuza", "Disparar", "Glosario", "Referencia rápida"),
                                                  ("en", "Skirmish", "Shoot", "Glossary", "Quick reference")):
        folder = sample_site / lang / "skirmish"
        assert _title(folder / "shoot.html") == f"{shoot} - {game}"
        assert _title(folder / "glossary.html") == f"{glossary} - {game}"
        assert _title(folder / "quickref.html") == f"{quickref} - {game}"
        assert _title(folder / "index.html") == game
        repeated = [p.name for p in folder.glob("*.html") if _title(p).count(game) > 1]
        assert repeated == [], repeated


def test_a_one_game_sites_entry_pages_say_the_games_name_once(sample_site: Path) -> None:
    """An entry of the sample said «Escaramuza» three times above its summary: in its breadcrumb («Inicio › Escaramuza ›
    Acciones»), its citation line («Citar como: … · Escaramuza») and its meta line («Acción · Escaramuza»). The meta line
    says it once (in print too); the breadcrumb's kind still leads to the game's page (a site of two games keeps the
    game in all three: tests/test_site.py, test_entry_page_golden_snippets)."""
    for lang, game in (("es", "Escaramuza"), ("en", "Skirmish")):
        pages = sorted((sample_site / lang / "skirmish").glob("*.html"))
        entries = [p for p in pages if 'class="kb-crumbs"' in p.read_text(encoding="utf-8")]
        assert len(entries) >= 5, pages
        for page in entries:
            text = page.read_text(encoding="utf-8")
            lines = re.findall(r'<p class="kb-(crumbs|place|meta)">(.*?)</p>', text)
            assert [kind for kind, _ in lines] == ["crumbs", "place", "meta"], (page, lines)
            said = {kind: re.sub(r"<[^>]+>", "", body).count(game) for kind, body in lines}
            assert said == {"crumbs": 0, "place": 0, "meta": 1}, (page, said)
            crumbs = dict(lines)["crumbs"]
            assert re.fullmatch(r'<a href="\.\./index\.html">[^<]+</a> › <a href="index\.html#\w+">[^<]+</a>', crumbs), crumbs


@pytest.mark.browser
def test_a_one_game_sites_search_offers_no_game_filter(sample_site: Path) -> None:
    """The dialog offered «Juego: todos (6) / Común a varios juegos (0) / Escaramuza (6)» and «Todos los juegos por
    igual» with one game, and each result said «Escaramuza · Regla». With one game only the kind filter is offered and a
    result names its kind (a site of two games keeps both filters and the game: tests/test_browser.py,
    test_dialog_keys_button_chips_and_enter and test_search_for_the_english_name_finds_the_spanish_page)."""
    from test_browser import launch_chromium

    from conftest import served

    chromium = launch_chromium()
    browser = next(chromium)
    try:
        with served(sample_site) as url:
            for lang, query, kind in (("es", "tirada", "Regla"), ("en", "roll", "Rule")):
                page = browser.new_page(viewport={"width": 390, "height": 844})
                page.goto(f"{url}/{lang}/skirmish/shoot.html")
                page.locator("button.kb-search__open").focus()
                page.wait_for_selector('html[data-kb-search="ready"]', state="attached")
                page.keyboard.press("/")
                page.locator('input.kb-search__input[type="search"]').press_sequentially(query)
                page.wait_for_selector("a.kb-search__hit", state="attached")
                page.wait_for_selector("html:not([data-kb-search-busy])", state="attached")
                assert page.locator("select.kb-search__kind").is_visible()
                assert page.locator("select.kb-search__game, .kb-search__wide").count() == 0
                metas = page.locator(".kb-search__meta").all_inner_texts()
                assert kind in metas and not any("·" in m for m in metas), metas
                page.close()
    finally:
        next(chromium, None)
