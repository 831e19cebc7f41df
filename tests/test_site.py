"""The static site without a browser: generated Markdown (golden snippets), the built HTML of both
languages, escaping, strict failures and the atomic replacement of the output folder."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import markdown
import pytest

from conftest import MKDOCS, cli
from kb.api import KnowledgeBase
from kb.core.locale import pgettext
from kb.site import app
from kb.mkdocs_defaults import SCRIPTS
from kb.site.app import defer_theme_bundle
from kb.site.render import steps as render_steps
from kb.view.entry import sequence_steps
from kb.site.pages import basis, build_site
from kb.site.reader_language import pick_language
from kb.site.structure import NavNode, nav_config, relative, results_by_entry

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "site" / "content"


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load(FIXTURE)


@pytest.fixture(scope="module")
def sites(kb: KnowledgeBase):
    results = kb.run_examples()
    return {lang: build_site(kb, results, lang) for lang in ("es", "en")}


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The fixture content built once with ``kb build`` (both languages)."""
    out = tmp_path_factory.mktemp("site") / "site"
    code, stdout, stderr = cli("--content", str(FIXTURE), "build", "--config", MKDOCS, "--site-dir", str(out), "--strict")
    assert code == 0, stdout + stderr
    assert "kb: es: building" in stdout and "kb: en: building" in stdout
    return out


# ---------------------------------------------------------------- generated Markdown
def test_both_languages_have_the_same_pages(sites) -> None:
    es, en = ({p.path for p in s.pages} for s in sites.values())
    assert es == en
    assert {"index.md", "concepts.md", "mini/index.md", "mini/glossary.md", "mini/shooting.md",
            "mini/line-of-sight.md", "mini/turn-sequence.md", "mini/aim.md", "other/sight.md"} <= es


def test_entry_page_golden_snippets(sites) -> None:
    md = sites["es"].page("mini/shooting.md").markdown
    # no search tags (the search box is the engine's); the page's own description, from its summary
    assert md.startswith('---\ntitle: "Disparo"\ndescription: "Para disparar hace falta línea de visión y sacar 8 o más '
                         'con 2d6."\n---\n')
    for snippet in [
        "# Disparo {#mini-shooting}",
        "> Para disparar hace falta línea de visión y sacar 8 o más con 2d6.\n> {: #summary }",
        "Durante la [activación](turn-sequence.md#step-activation), una miniatura con\n"
        "[línea de visión](line-of-sight.md) hacia su objetivo tira 2d6: con 8 o más, acierta.\nSin LdV no se puede disparar.\n{: #text-1 }",
        "### Sacar 8 o más con 2d6 {#example-eight-or-more}",
        "≈ 41,7\u00a0%.",  # Babel: Spanish decimal comma and a space before the sign
        "*✔ Comprobado: la regla da esta respuesta*",
        "## Véase también {#see-also}\n\n- [Secuencia de turno](turn-sequence.md)",
        "## Citada por {#referenced-by}\n\n- [Apuntar](aim.md)",
        "*Fuente: “Reglas de prueba”, sección “Disparo”*\n{: #source }",  # the document's title from game.yaml, not its file
        # its place: breadcrumb before the title, citation and game after it
        "[Inicio](../index.md) › [Mini Escaramuza](index.md) › [Reglas](index.md#rule)\n{: .kb-crumbs }\n"
        "# Disparo {#mini-shooting}\n\nCitar como: `mini.shooting` · [Mini Escaramuza](index.md)\n{: .kb-place }",
    ]:
        assert snippet in md, snippet
    assert "kb-folded" not in md and "tags:" not in md


def test_game_page_shows_the_turn_sequence_in_order(sites) -> None:
    md = sites["en"].page("mini/index.md").markdown
    assert ("1. **[Initiative](turn-sequence.md#step-initiative)**  \n"
            "    Each player rolls 1d6; the higher roll goes first.\n"
            "2. **[Activation](turn-sequence.md#step-activation)**") in md
    assert "    1. **[End of activation](turn-sequence.md#step-end-of-activation)**" in md
    assert "### Actions {#action}\n\n- [Aim](aim.md) — Apuntar cuesta una acción" in md


def test_untranslated_english_page_says_so(sites) -> None:
    md = sites["en"].page("mini/aim.md").markdown
    assert ('!!! warning "Not translated yet"\n\n    This entry has not been translated into English yet; '
            "the Spanish original is shown. (Fields: summary, text)") in md
    assert "> Apuntar cuesta una acción" in md
    assert "| Phase | [Activation](turn-sequence.md#step-activation) |" in md  # the step, by its own title
    assert "Not translated" not in sites["en"].page("mini/shooting.md").markdown
    assert "!!! warning" not in sites["es"].page("mini/aim.md").markdown
    game = sites["en"].page("mini/index.md").markdown
    assert game.index('!!! warning "Partly in Spanish"') < game.index("# Mini Skirmish")


def test_concept_map_lists_each_game_term_with_its_note(sites) -> None:
    md = sites["en"].page("concepts.md").markdown
    assert "## Line of sight {#common-line-of-sight}" in md
    assert ('| <span class="kb-game">Mini Skirmish</span> | [Line of sight](mini/line-of-sight.md) | Drawn from any point '
            'of the base. |') in md
    assert '| <span class="kb-game">Other Game</span> | [Visibility](other/sight.md) | Measured from the unit\'s centre. |' in md


def test_concept_map_opens_with_an_index_and_keeps_long_game_names_short(tree) -> None:
    """Audit 2, defect 13: the concept map was 42 phone screens with no index at its top, and its game column wrapped
    «Aliens vs Predator: The Hunt Begins» over four lines. An index of the concepts (escaped, in the page's language);
    the game's name up to its colon, the whole name as title and as the text a screen reader reads."""
    from kb.api import KnowledgeBase

    concept = "id: common.{0}\nkind: concept\ntitle: {{es: '{1}', en: '{2}'}}\nsummary: {{es: Algo., en: Something.}}\n"
    term = ("id: g.{0}\nkind: term\ngame: g\ntitle: {{es: T, en: T}}\nsummary: {{es: S., en: S.}}\n"
            "term: {{forms: {{es: [t], en: [t]}}, concept: common.{0}}}\nsource: {{doc: seed.txt, section: x}}\n")
    root = tree({
        "g/game.yaml": "id: g\nname: {es: 'Aliens vs Predator: The Hunt Begins', en: 'Aliens vs Predator: The Hunt Begins'}\n"
                       "source_language: es\nsources:\n  - doc: seed.txt\n",
        "common/concepts/a.yaml": concept.format("a", "Acción <b>", "Action <b>"),
        "common/concepts/b.yaml": concept.format("b", "Bloqueo", "Block"),
        "g/terms/a.yaml": term.format("a"),
    })
    kb = KnowledgeBase.load(root)
    for lang, index in (("es", "**Conceptos:** [Acción &lt;b&gt;](#common-a) · [Bloqueo](#common-b)\n{: .kb-index }"),
                        ("en", "**Concepts:** [Action &lt;b&gt;](#common-a) · [Block](#common-b)\n{: .kb-index }")):
        md = build_site(kb, [], lang).page("concepts.md").markdown
        assert index in md and md.index(index) < md.index("## ")  # at the top, before the first concept
        assert ('| <span class="kb-game" title="Aliens vs Predator: The Hunt Begins"><span aria-hidden="true">Aliens vs '
                'Predator</span><span class="kb-sr">Aliens vs Predator: The Hunt Begins</span></span> | [T](g/a.md) |') in md
    # a game.yaml's short_name, where it gives one, in the page's language («StarCraft tabletop miniatures game»: no colon)
    (root / "g" / "game.yaml").write_text("id: g\nname: {es: StarCraft (juego de miniaturas), en: StarCraft tabletop "
                                          "miniatures game}\nshort_name: {es: StarCraft, en: StarCraft TMG}\n"
                                          "source_language: es\nsources:\n  - doc: seed.txt\n", encoding="utf-8")
    kb = KnowledgeBase.load(root)
    assert not [d for d in kb.diagnostics if str(d.location.path).endswith("game.yaml")]  # the schema knows the field
    md = build_site(kb, [], "en").page("concepts.md").markdown
    assert ('| <span class="kb-game" title="StarCraft tabletop miniatures game"><span aria-hidden="true">StarCraft TMG'
            '</span><span class="kb-sr">StarCraft tabletop miniatures game</span></span> |') in md
    from kb.site.sanitise import sanitise  # the page's HTML keeps the short name hidden from screen readers

    assert sanitise('<span aria-hidden="true">Aliens</span><p aria-hidden="true">x</p>') == (
        '<span aria-hidden="true">Aliens</span><p>x</p>')


def test_entry_neighbours_follow_the_turn_sequence_or_the_kind(tree) -> None:
    from kb.api import KnowledgeBase

    root = tree({
        "g/sequences/turn.yaml": _entry("g.turn", "sequence", "Turno", 'sequence: {steps: [{id: a, title: {es: A, '
                                        'en: A}, allows: [walk, run]}, {id: b, title: {es: B, en: B}, allows: [hide]}]}'),
        "g/actions/walk.yaml": _entry("g.walk", "action", "Andar"), "g/actions/run.yaml": _entry("g.run", "action", "Correr"),
        "g/actions/hide.yaml": _entry("g.hide", "action", "Esconderse"),
        "g/actions/aim.yaml": _entry("g.aim", "action", "Apuntar"),
        "g/rules/x.yaml": _entry("g.x", "rule", "Equis"), "g/rules/y.yaml": _entry("g.y", "rule", "Ye"),
    })
    site = build_site(KnowledgeBase.load(root), [], "es")
    run = site.page("g/run.md").markdown
    assert "[← Andar](walk.md){: rel=prev }" in run and "[Esconderse →](hide.md){: rel=next }" in run
    aim = site.page("g/aim.md").markdown  # not in the sequence: its kind, alphabetically
    assert "[← Andar](walk.md){: rel=prev }" in aim and "[Correr →](run.md){: rel=next }" in aim
    assert "rel=prev" not in site.page("g/x.md").markdown
    assert "[← Equis](x.md){: rel=prev }" in site.page("g/y.md").markdown
    nav = next(n for n in site.nav if n.path == "g/index.md")  # the menu: the game's entries by kind
    kinds = {n.title: [c.path for c in n.children] for n in nav.children}
    assert kinds["Acciones"] == ["g/walk.md", "g/aim.md", "g/run.md", "g/hide.md"]
    assert kinds["Reglas"] == ["g/x.md", "g/y.md"] and nav.children[0].path == "g/glossary.md"


def test_a_kind_of_many_entries_is_grouped_in_the_menu(tree) -> None:
    """The theme puts every item of the levels above a page into it: a kind of 1,800 entries made each of its pages
    carry 1,800 links, and the build grow with the square of the entries (issue 28). Over MENU_ITEMS, groups."""
    from kb.site.pages import MENU_ITEMS

    count = 2 * MENU_ITEMS + 5
    root = tree({f"g/rules/r{i:03}.yaml": _entry(f"g.r{i:03}", "rule", f"Regla {i:03}") for i in range(count)}
                | {"g/terms/t.yaml": _entry("g.t", "term", "Término")})
    site = build_site(KnowledgeBase.load(root), [], "es")
    game = next(n for n in site.nav if n.path == "g/index.md")
    kinds = {n.title: n.children for n in game.children}
    assert [c.path for c in kinds["Términos"]] == ["g/t.md"]  # a small kind as it was
    groups = kinds["Reglas"]
    assert len(groups) == 3 and all(g.path is None and len(g.children) <= MENU_ITEMS for g in groups)
    assert [c.path for g in groups for c in g.children] == [f"g/r{i:03}.md" for i in range(count)]  # all, in order
    assert groups[0].title == "Regla 000 – Regla 041" and groups[-1].title == f"Regla 084 – Regla {count - 1:03}"
    [menu] = nav_config(site.nav)[1].values()  # the game's: its page, glossary, quick reference, then its kinds
    assert menu[3] == {"Reglas": [{g.title: [{c.title: c.path} for c in g.children]} for g in groups]}


def _entry(eid: str, kind: str, title: str, extra: str = "") -> str:
    return (f"id: {eid}\nkind: {kind}\ngame: g\ntitle: {{es: {title}, en: {title}}}\n"
            f"summary: {{es: Resumen de {title}., en: Summary of {title}.}}\nsource: {{doc: seed.txt, section: x}}\n"
            + (extra + "\n" if extra else ""))


def test_glossary_page(sites) -> None:
    md = sites["es"].page("mini/glossary.md").markdown
    assert "## [Línea de visión](line-of-sight.md) {#mini-line-of-sight}" in md
    assert "- *Abreviaturas:* español: LdV; inglés: <span lang=\"en\">LoS</span>" in md
    assert "- *Concepto:* [Línea de visión](../concepts.md#common-line-of-sight)" in md


def test_navigation_escapes_titles_and_prefixes_paths() -> None:
    nav = (NavNode("<b>A</b>", "g/index.md", (NavNode("x & y", "g/x.md"),)), NavNode("Home", "index.md"))
    assert nav_config(nav, "es/") == [{"&lt;b&gt;A&lt;/b&gt;": ["es/g/index.md", {"x &amp; y": "es/g/x.md"}]},
                                      {"Home": "es/index.md"}]
    assert relative("g/a.md", "concepts.md") == "../concepts.md"
    assert relative("g/a.md", "g/b.md") == "b.md"


# ---------------------------------------------------------------- the built site
def _pages(root: Path) -> set[str]:
    return {str(p.relative_to(root)) for p in root.rglob("*.html") if p.name != "404.html"}


def test_every_page_is_built_in_both_languages(built: Path, sites) -> None:
    expected = {p.path.removesuffix(".md") + ".html" for p in sites["es"].pages}
    assert _pages(built / "es") == expected
    assert _pages(built / "en") == expected
    root = (built / "index.html").read_text()  # picks the remembered or the browser's language, es without either
    assert '{"es": "es/index.html", "en": "en/index.html"}' in root and pick_language(["es", "en"]) in root
    assert "navigator.languages" in root and '<a href="es/index.html" hreflang="es">Español</a>' in root


def test_permalinks_and_descriptions_speak_the_page_language(built: Path) -> None:
    es = (built / "es" / "mini" / "shooting.html").read_text(encoding="utf-8")
    en = (built / "en" / "mini" / "shooting.html").read_text(encoding="utf-8")
    assert 'title="Enlace permanente"' in es and "Permanent link" not in es
    assert 'title="Permanent link"' in en
    assert '<meta name="description" content="Para disparar hace falta' in es
    descriptions = {re.search(r'<meta name="description" content="([^"]*)"', p.read_text(encoding="utf-8"))[1]
                    for p in (built / "es").rglob("*.html") if p.name != "404.html"}
    assert len(descriptions) > 3  # not one description for every page


def _script(path: Path, part: str = "") -> dict:
    """The data a search-data script (the head, or the part named ``part``) hands to the page."""
    text = path.read_text(encoding="utf-8")
    name = f',"{part}"' if part else ""
    m = re.fullmatch(r'window\.kbSearchData&&window\.kbSearchData\("(es|en)",(".*")' + re.escape(name) + r'\);\n', text, re.S)
    assert m and m[1] == path.parent.name, text[:200]
    return json.loads(json.loads(m[2]))


def _search_data(root: Path) -> dict:
    """A language's search data as the page has it once every part is in: the head (``<lang>/kb-search-<lang>.js``)
    joined with the parts it names (``kb-search-<lang>-<part>.js``); postings keyed by term."""
    lang = root.name
    data = _script(root / f"kb-search-{lang}.js")
    assert data["lang"] == lang and not {"words", "spelling", "terms"} & set(data) and "names" not in data["rules"]
    assert not any("postings" in f for f in data["fields"])  # the head carries no word list and no postings
    names = ([f"w{n}" for n in range(len(data["parts"]["words"]))] + [f"p{n}" for n in range(data["parts"]["postings"])]
             + [f"d{n}" for n in range(len(data["parts"]["docs"]))] + [f"s{n}" for n in range(len(data["parts"]["spelling"]))]
             + [f"n{n}" for n in range(len(data["parts"]["names"]))])
    assert {p.name for p in root.glob(f"kb-search-{lang}-*.js")} == {f"kb-search-{lang}-{n}.js" for n in names}
    parts = {n: _script(root / f"kb-search-{lang}-{n}.js", n) for n in names}
    data["words"], postings = {}, {f["name"]: {} for f in data["fields"]}
    for n, part in parts.items():
        if n.startswith("w"):
            first = data["parts"]["words"][int(n[1:])]
            assert all(first <= k for k in part["words"]) and not data["words"].keys() & part["words"].keys()
            data["words"].update(part["words"])
        if n.startswith("n"):  # the entries' names, in ranges of keys
            first = data["parts"]["names"][int(n[1:])]
            assert all(first <= k for k in part["names"]) and not data["rules"].get("names", {}).keys() & part["names"].keys()
            data["rules"].setdefault("names", {}).update(part["names"])
        for field, rows in part.get("postings", {}).items():
            assert all(row[0] % data["parts"]["postings"] == int(n[1:]) for row in rows)
            postings[field].update((row[0], row) for row in rows)
    data["spelling"] = {lg: [] for lg in parts["s0"]["spelling"]}
    for n, start in enumerate(data["parts"]["spelling"]):  # a letter's candidates in one part: the one its letter is in
        later = data["parts"]["spelling"][n + 1:n + 2]
        for lg, rows in parts[f"s{n}"]["spelling"].items():
            assert all(start <= w and (not later or w[:1] < later[0]) for w, _ in rows)
            data["spelling"][lg] += rows
    for n, start in enumerate(data["parts"]["docs"]):  # what a result shows: the docs parts, in order
        for i, shown in enumerate(parts[f"d{n}"]["docs"]):
            data["docs"][start + i].update(shown)
    for f in data["fields"]:
        f["postings"] = postings[f["name"]]
    return data


def test_each_language_has_its_own_search_data_and_interface(built: Path) -> None:
    es, en = _search_data(built / "es"), _search_data(built / "en")
    assert not (built / "search").exists() and not (built / "en" / "search").exists()  # no theme index
    assert {d["id"] for d in es["docs"]} == {d["id"] for d in en["docs"]}
    shooting = {d["id"]: d for d in es["docs"]}["mini.shooting"]
    assert shooting["title"] == "Disparo" and shooting["url"] == "mini/shooting.html"
    assert {d["id"]: d for d in en["docs"]}["mini.shooting"]["title"] == "Shooting"
    assert {d["id"]: d for d in es["docs"]}["common.line-of-sight"]["url"] == "concepts.html#common-line-of-sight"
    page = (built / "es" / "mini" / "shooting.html").read_text()
    meta = json.loads(html.unescape(re.search(r'<meta name="kb-search" content="([^"]*)">', page)[1]))
    assert meta["data"] == "../kb-search-es.js" and meta["root"] == "../" and meta["lang"] == "es"
    # none of our scripts is requested before the first paint: the page's one loader adds them all, in order (issue 29)
    _loads_after_the_first_paint(page, ["../../kb-calc.js"] + [f"../../{name}" for name in SCRIPTS])  # a calculator's page
    _loads_after_the_first_paint((built / "es" / "index.html").read_text(), [f"../{name}" for name in SCRIPTS])
    # the English pages load ours from the site's root, where the Spanish build writes them (audit-phone3 D9)
    _loads_after_the_first_paint((built / "en" / "index.html").read_text(), [f"../{name}" for name in SCRIPTS])
    assert all((built / "es" / "mini" / url).resolve().is_file() for url in ["../../kb-calc.js"] + [f"../../{n}" for n in SCRIPTS])
    home = (built / "en" / "index.html").read_text()
    assert json.loads(html.unescape(re.search(r'<meta name="kb-search" content="([^"]*)">', home)[1]))["data"] == "kb-search-en.js"
    assert '<html lang="es"' in page
    assert '<html lang="en"' in (built / "en" / "mini" / "shooting.html").read_text()


def _loads_after_the_first_paint(page: str, urls: list[str]) -> None:
    """``page`` loads ``urls`` (ours, in that order) by its one loader (``app.script_loader``) and by no tag of its own;
    no script of the page holds up the parser (the theme's bundle is deferred, every script after it being ours)."""
    assert page.count(app.script_loader(urls)) == 1 and page.count("<script>(function (urls)") == 1, page[-3000:]
    tags = re.findall(r"<script\b[^>]*\bsrc=[^>]*>", page)
    assert not [t for t in tags if "kb-" in t], tags
    assert all(" defer" in t or " async" in t for t in tags), tags
    assert len([t for t in tags if "assets/javascripts/bundle." in t]) == 1, tags


def _holds(row: list, docs: set[int]) -> bool:
    """Whether a posting row ``[term, df, doc, weight, n, positions (n)..., doc, ...]`` lists one of ``docs``."""
    i = 2
    while i < len(row):
        if row[i] in docs:
            return True
        i += 3 + row[i + 2]
    return False


def test_search_data_is_the_engines_analysis(built: Path, kb: KnowledgeBase) -> None:
    from kb.core.cache import shared_cache_dir
    from kb.search.export import export

    es, en = _search_data(built / "es"), _search_data(built / "en")
    whole = json.loads(json.dumps(export(kb.search_reader(), "es", lambda i: None, {}, cache=shared_cache_dir("search-words", kb.cache_base))))
    # the parts joined are the whole export: nothing lost or changed by the split (the terms' text stays home)
    assert es["words"] == whole["words"] and es["spelling"] == whole["spelling"] and es["rules"] == whole["rules"]
    assert [(f["name"], f["lengths"], f["postings"]) for f in es["fields"]] == [
        (f["name"], f["lengths"], {row[0]: row for row in f["postings"]}) for f in whole["fields"]]
    terms = whole["terms"]
    # surface forms, accent-less, reach the engine's Spanish stems ([languages, es term, en term]); a word the
    # content never uses but Spanish does (wordfreq) reaches its stem too
    assert terms[es["words"]["vision"][1]] == terms[es["words"]["visiones"][1]] == "vision"
    de = es["words"]["de"]  # a Spanish stop word: no Spanish term, the English analysis keeps "de", the names field too
    assert de[1] is None and terms[de[2]] == "de" and len(de) == 5 and de[0] & 1
    assert "linea" in es["words"] and "línea" not in es["words"]
    # the glossary's names travel as the engine's query expansion, abbreviations kept as typed
    assert any({"LdV", "LoS"} <= {name for name, _ in g} for g in es["rules"]["alternatives"]["groups"])
    assert "linea de vision" in es["rules"]["alternatives"]["keys"]
    assert "LoS" in es["rules"]["alternatives"]["exact"]
    fields = {f["name"]: f for f in es["fields"]}
    assert fields["title_es"]["weight"] > fields["body_en"]["weight"] and es["rules"]["bm25"] == {"k1": 1.2}
    assert set(fields) == {f"{f}_{lg}" for f in ("title", "names", "questions", "summary", "body") for lg in ("es", "en")}

    def title_terms(data: dict) -> list[str]:  # both languages' documents are in each language's data
        at = [d["id"] for d in data["docs"]].index("mini.shooting")
        docs = {i for i, d in enumerate(data["index"]) if d == at}
        assert len(docs) == 2
        return sorted(terms[row[0]] for f in data["fields"] if f["name"].startswith("title_")
                      for row in f["postings"].values() if _holds(row, docs))

    assert title_terms(es) == title_terms(en) == ["dispar", "shoot"]
    assert dict(es["spelling"]["es"])["vision"] > 0


def test_language_switcher_points_at_the_same_page(built: Path) -> None:
    es = (built / "es" / "mini" / "shooting.html").read_text()
    en = (built / "en" / "mini" / "shooting.html").read_text()
    assert '<a href="../../en/mini/shooting.html" hreflang="en" class="md-select__link">' in es
    assert '<a href="../../es/mini/shooting.html" hreflang="es" class="md-select__link">' in en
    home = (built / "es" / "index.html").read_text()
    assert '<a href="../en/index.html" hreflang="en" class="md-select__link">' in home


def test_pages_work_offline(built: Path) -> None:
    page = (built / "es" / "mini" / "shooting.html").read_text()
    assert "unpkg.com" not in page and "fonts.googleapis.com" not in page and "iframe-worker" not in page
    assert '<meta name="kb-table" content="../kb-table-es.js ../common/kb-table-es.js kb-table-es.js">' in page  # the words, the shared concepts', its game's: not another game's (issue 29)
    assert 'src="../kb-table-es.js"' not in page  # loaded by kb-table.js after the page, never on the first paint's path
    assert "other/kb-table-es.js" not in page and (built / "es" / "other" / "kb-table-es.js").is_file()
    home = (built / "es" / "index.html").read_text()
    assert ' other/kb-table-es.js' in home and ' mini/kb-table-es.js' in home  # outside a game: every game's
    assert 'id="example-eight-or-more"' in page and 'id="mini-shooting"' in page


def test_each_language_is_an_installable_app_with_an_offline_list(built: Path) -> None:
    import struct

    for lang, name in (("es", "Reglas de juegos de mesa"), ("en", "Tabletop game rules")):
        manifest = json.loads((built / lang / "manifest.webmanifest").read_text())
        assert manifest["name"] == name and manifest["lang"] == lang and manifest["start_url"] == "./index.html" and manifest["scope"] == "../"
        assert manifest["id"] == f"/{lang}/"  # each language's app is its own (one id made them one app)
        assert manifest["display"] == "standalone" and manifest["theme_color"].startswith("#")
        for icon in manifest["icons"]:
            png = (built / lang / icon["src"]).read_bytes()
            width, height = struct.unpack(">II", png[16:24])
            assert png[:8] == b"\x89PNG\r\n\x1a\n" and f"{width}x{height}" == icon["sizes"]
        # audit 2, defect 12: Android cuts an icon to its own shape: a maskable one, beside the plain ones
        assert {(i["purpose"], i["sizes"]) for i in manifest["icons"]} == {
            (purpose, f"{s}x{s}") for purpose in ("any", "maskable") for s in (192, 512)}
        page = (built / lang / "mini" / "shooting.html").read_text()
        assert '<link rel="manifest" href="../manifest.webmanifest">' in page
        # the tab shows the app's die, not the theme's logo (Material's favicon.png)
        assert '<link rel="icon" href="../../kb-icon-192.png">' in page and "assets/images/favicon.png" not in page
        offline = json.loads((built / lang / "kb-offline.json").read_text())
        files = {path for path, _ in offline["games"]["mini"]["files"]}
        assert {"index.html", "mini/index.html", "mini/shooting.html", "mini/glossary.html",
                f"kb-search-{lang}.js", f"kb-table-{lang}.js", f"mini/kb-table-{lang}.js"} <= files
        assert {p.name for p in (built / lang).glob(f"kb-search-{lang}-*.js")} <= files  # every part of the search data
        assert not any(f.startswith("other/") for f in files)  # one game's pages only
        for path, size in offline["games"]["mini"]["files"]:
            assert (built / lang / path).stat().st_size == size, path
        assert offline["games"]["mini"]["bytes"] == sum(size for _, size in offline["games"]["mini"]["files"])
        # the game's page gives the buttons their words, decimal mark (kb-offline.js: no Intl at load) and sizes, which
        # the build writes in: a visit does not fetch the list (audit-phone3 D8); no other page has them
        meta = re.search(r'<meta name="kb-offline" content="([^"]*)" data-kb-bytes="([ 0-9]*)" data-kb-runtime="([ 0-9]*)">',
                         (built / lang / "mini" / "index.html").read_text())
        assert meta, lang
        words = json.loads(html.unescape(meta[1]))
        assert words["decimal"] == {"es": ",", "en": "."}[lang] and words["lang"] == lang
        assert words["labels"]["offline_save"] == pgettext(lang, "site", "offline_save")
        assert len(meta[2]) == len(meta[3]) == app.SIZE_WIDTH
        assert int(meta[2]) == offline["games"]["mini"]["bytes"] and int(meta[3]) == 0  # no runtime in the fixture
        assert "decimal" not in offline and "labels" not in offline  # the list no longer carries them
        assert 'name="kb-offline"' not in page and 'name="kb-offline"' not in (built / lang / "index.html").read_text()
        links_concepts = any("concepts.html" in p.read_text() for p in (built / lang / "mini").glob("*.html"))
        assert links_concepts and "concepts.html" in files  # the concept map, linked from the game's pages, is kept
        assert offline["games"]["mini"]["name"] == {"es": "Mini Escaramuza", "en": "Mini Skirmish"}[lang]
        assert 'data-kb-palette' in page and 'data-md-component="palette"' not in page  # the toggle is kb-palette.js's
    worker = (built / "kb-sw.js").read_text()
    assert f'var VERSION = "{offline["version"]}";' in worker and "__KB_VERSION__" not in worker
    pages = json.loads(re.search(r"var PAGES = (.*);\n", worker)[1])  # each language's offline pages, in the worker
    assert list(pages) == ["es", "en"] and "__KB_PAGES__" not in worker
    known = json.loads(re.search(r"var SITE = (.*);  /\*", worker)[1])  # what tells a page not saved from no page
    assert known["es"]["games"] == sorted(offline["games"]) and "__KB_SITE__" not in worker
    assert {"index.html", "concepts.html"} <= set(known["es"]["pages"])
    assert not any(p.startswith("mini/") or not p.endswith(".html") for p in known["es"]["pages"])
    assert all(list(pages[lang]) == ["unsaved", "missing"] for lang in pages)  # not saved; no such page in a saved game
    es, en = pages["es"]["unsaved"], pages["en"]["unsaved"]
    assert '<html lang="es">' in es and '"mini":"Mini Escaramuza"' in es and "No hay conexión" in es
    assert '<html lang="en">' in en and '"mini":"Mini Skirmish"' in en
    assert "<h1>Esta página no existe</h1>" in pages["es"]["missing"] and "Guardar" not in pages["es"]["missing"]
    assert "<h1>This page does not exist</h1>" in pages["en"]["missing"] and "Save" not in pages["en"]["missing"]


def test_the_english_site_loads_the_roots_styles_and_scripts_and_ships_no_copy_of_them(built: Path) -> None:
    """audit-phone3 D9: the English build wrote its own copies of the theme's style and scripts and of ours, byte for
    byte the root's that the Spanish pages load, so switching language downloaded them again (about 330 KB). No file
    of ``en/`` is a copy of one at the root; the English pages (the 404 page too) load the root's, and the English
    offline list holds them."""
    import hashlib

    def digest(path: Path) -> str:
        return hashlib.sha256(path.read_bytes()).hexdigest()

    root = {digest(p): p for p in built.rglob("*") if p.is_file() and p.relative_to(built).parts[0] not in ("es", "en")}
    copies = [str(p.relative_to(built)) for p in (built / "en").rglob("*") if p.is_file() and digest(p) in root]
    assert copies == []
    for page in ("index.html", "mini/shooting.html", "404.html"):
        text = (built / "en" / page).read_text(encoding="utf-8")
        links = re.findall(r'(?:href|src)="([^"#]+\.(?:css|js))"', text)
        links += json.loads(re.search(r"\}\)\((\[[^]]*\])\);</script>", text)[1]) if page != "404.html" else []
        assert any("bundle." in u for u in links) and any(u.endswith("kb.css") for u in links), (page, links)
        for url in links:  # each resolves to a file of the site: a root's copy for the theme's and ours
            path = Path(url.lstrip("/")) if url.startswith("/") else (built / "en" / page).parent / url
            target = (built / path).resolve() if url.startswith("/") else path.resolve()
            assert target.is_file(), (page, url)
            assert target.relative_to(built.resolve()).parts[0] != "en" or "kb-search-en" in url, (page, url)
    files = {path for path, _ in json.loads((built / "en" / "kb-offline.json").read_text())["games"]["mini"]["files"]}
    assert {"../kb.css", "../kb-table.js", "../kb-offline.js"} <= files
    assert any(p.startswith("../assets/javascripts/bundle.") for p in files)


def test_both_languages_name_one_copy_of_the_apps_icons(built: Path) -> None:
    """Switching from a Spanish page to its English twin fetched ``en/kb-icon-*.png``, byte for byte ``es/``'s: the
    icons are written once, at the site's root, and both languages' manifests, tab icons and touch icons name that
    copy (the manifests stay one per language: their name, language and start page are the language's)."""
    import hashlib

    def digest(path: Path) -> str:
        return hashlib.sha256(path.read_bytes()).hexdigest()

    spanish = {digest(p) for p in (built / "es").rglob("*") if p.is_file()}
    assert [str(p.relative_to(built)) for p in (built / "en").rglob("*") if p.is_file() and digest(p) in spanish] == []
    icons = {p.name for p in built.glob("kb-icon-*.png")}
    assert icons == {"kb-icon-192.png", "kb-icon-512.png", "kb-icon-maskable-192.png", "kb-icon-maskable-512.png"}
    assert not list(built.glob("*/kb-icon-*.png"))
    for lang in ("es", "en"):
        manifest = json.loads((built / lang / "manifest.webmanifest").read_text())
        assert {(built / lang / i["src"]).resolve() for i in manifest["icons"]} == {(built / n).resolve() for n in icons}
        for page in ("index.html", "mini/shooting.html"):
            text = (built / lang / page).read_text(encoding="utf-8")
            hrefs = re.findall(r'<link rel="(?:icon|apple-touch-icon)" href="([^"]*)"', text)
            assert len(hrefs) == 2 and {((built / lang / page).parent / h).resolve() for h in hrefs} == {
                (built / "kb-icon-192.png").resolve()}, (lang, page, hrefs)
    for page in ("404.html", "en/404.html"):  # absolute from the site's address: its root's copy
        assert '<link rel="icon" href="/kb-icon-192.png">' in (built / page).read_text(encoding="utf-8"), page
    files = {path for path, _ in json.loads((built / "en" / "kb-offline.json").read_text())["games"]["mini"]["files"]}
    assert "../kb-icon-192.png" in files and "kb-icon-192.png" not in files


def test_a_build_reads_each_file_of_the_site_once(built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Writing the worker and the offline lists reads each file of the site at most once, counted per path: the
    version and the lists' hashes come from the same read (the version once read the whole site a second time), a
    file both languages list (the calculators' runtime, here a stand-in) is read once, and a page's links and title
    are taken from that read too. Every file but the worker is read: the version covers it. Both lists say the same
    hash for the runtime, its bytes' (the first digits of their SHA-256)."""
    import builtins
    import hashlib
    import io
    import shutil
    from collections import Counter

    from kb.site.calc_runtime import FOLDER

    site = tmp_path / "site"
    shutil.copytree(built, site)
    for old in [site / "kb-sw.js", *site.glob("*/kb-offline.json")]:  # as a build finds the folder: not written yet
        old.unlink()
    (site / FOLDER).mkdir(exist_ok=True)
    (site / FOLDER / "pyodide.asm.js").write_bytes(b"runtime" * 1000)
    read: Counter[Path] = Counter()
    real = io.open  # what Path.read_bytes, read_text and open() call

    def counted(file, mode: str = "r", *args, **kwargs):
        if isinstance(file, (str, Path)) and "r" in mode and Path(file).is_relative_to(site):
            read[Path(file)] += 1
        return real(file, mode, *args, **kwargs)

    monkeypatch.setattr(io, "open", counted)
    monkeypatch.setattr(builtins, "open", counted)
    app.write_offline(str(site), ["es", "en"])
    monkeypatch.undo()
    assert [str(p) for p, n in read.items() if n > 1] == []
    written = {site / "kb-sw.js", site / "es" / "kb-offline.json", site / "en" / "kb-offline.json"}
    skipped = (".map", ".gz", "sitemap.xml", "robots.txt")
    files = {p for p in site.rglob("*") if p.is_file() and p not in written and not p.name.endswith(skipped)}
    assert set(read) == files
    lists = [json.loads((site / lang / "kb-offline.json").read_text())["hashes"] for lang in ("es", "en")]
    runtime = f"../{FOLDER}/pyodide.asm.js"
    assert lists[0][runtime] == lists[1][runtime] == hashlib.sha256(b"runtime" * 1000).hexdigest()[:app.HASH]


def test_the_theme_speaks_only_the_page_language(built: Path) -> None:
    es = (built / "es" / "mini" / "shooting.html").read_text()
    en = (built / "en" / "mini" / "shooting.html").read_text()
    assert 'title="Modo oscuro"' in es and "Dark mode" not in es and "Light mode" not in es
    assert 'title="Dark mode"' in en and "Modo oscuro" not in en and "Modo claro" not in en
    assert "Material for MkDocs" not in es and "Material for MkDocs" not in en  # the theme's "Made with"


def test_titles_name_the_game_and_the_site_in_the_page_language(built: Path) -> None:
    import re

    def title(path: Path) -> str:
        return re.search(r"<title>(.*?)</title>", path.read_text()).group(1)

    assert title(built / "es" / "mini" / "shooting.html") == "Disparo · Mini Escaramuza - Reglas"
    assert title(built / "en" / "mini" / "shooting.html").startswith("Shooting · Mini ")
    assert title(built / "en" / "mini" / "shooting.html").endswith(" - Rules")
    assert title(built / "es" / "mini" / "glossary.html") == "Glosario · Mini Escaramuza - Reglas"
    assert title(built / "es" / "index.html").endswith(" - Reglas") and "Rules" not in title(built / "es" / "index.html")


def test_no_page_links_the_other_languages_by_the_themes_alternate_tags(built: Path) -> None:
    """Material fetches a ``sitemap.xml`` beside each ``<link rel="alternate" hreflang>`` target, which no folder
    has (issue 29): the pages' template drops them from its ``site_meta`` block; the switcher stays."""
    for lang in ("es", "en"):
        page = (built / lang / "mini" / "shooting.html").read_text(encoding="utf-8")
        assert re.search(r'<link rel="alternate" href="[^"]*" hreflang=', page) is None
        assert 'class="md-select__link"' in page and '<link rel="canonical"' in page


def test_the_page_not_found_speaks_both_languages_its_own_first(built: Path) -> None:
    """A static host serves the root ``404.html`` for every missing address, English ones too: it says "not found"
    in each language, in that language's ``lang``, with a link to that language's home; the Spanish build's (the
    root's) Spanish first, the English build's (``en/404.html``) English first and in an English page. The missing
    address is shown by the page's script as text (``textContent``), never as markup."""
    from kb.core.locale import pgettext

    for page, first in ((built / "404.html", "es"), (built / "en" / "404.html", "en")):
        text = page.read_text(encoding="utf-8")
        assert f'<html lang="{first}"' in text and "404 - Not found" not in text, page
        parts = re.findall(r'<section lang="(\w+)"><h1>([^<]*)</h1>(.*?)</section>', text)
        assert [lang for lang, _, _ in parts] == [first, "es" if first == "en" else "en"], page
        for lang, heading, rest in parts:
            assert heading == html.escape(pgettext(lang, "site", "not_found_title")), (page, lang)
            home = f'<a class="md-button" href="/{lang}/index.html" hreflang="{lang}">'
            assert home + html.escape(pgettext(lang, "site", "not_found_home")) + "</a>" in rest, (page, lang)
            assert (built / lang / "index.html").is_file()
        script = text[text.rindex("<script>"):text.rindex("</script>")]  # the engine's, last before </body>
        assert "textContent = shown" in script and "innerHTML" not in script and "document.write" not in script
        title = re.search(r"<title>([^<]*)</title>", text)[1]
        assert title.startswith(html.escape(pgettext(first, "site", "not_found_title"))), title


def test_the_themes_tab_icon_is_not_shipped_when_the_pages_show_the_apps_die(built: Path) -> None:
    """Material's ``assets/images/favicon.png`` went into every site (and every offline list) though no page links it:
    the tab shows the app's die (``kb-icon-192.png``). Every page names one icon, the die, and the theme's is gone."""
    assert not (built / "assets" / "images" / "favicon.png").exists()
    assert not any("favicon.png" in path for lang in ("es", "en")
                   for game in json.loads((built / lang / "kb-offline.json").read_text())["games"].values()
                   for path, _ in game["files"])
    for page in ("es/index.html", "en/mini/shooting.html", "404.html", "en/404.html"):
        icons = re.findall(r'<link rel="(?:icon|apple-touch-icon)" href="([^"]*)"', (built / page).read_text())
        assert icons and {u.rsplit("/", 1)[-1] for u in icons} == {"kb-icon-192.png"}, (page, icons)


def test_the_page_not_found_has_a_menu_and_a_header_for_both_languages(built: Path) -> None:
    """A dead link is in no language: the root 404 page's header named the Spanish site alone and its menu was the
    Spanish site's whole tree. Its header names the site in every language, its menu has a section per language (the
    build's first), named in that language, with that language's home and games, each in its own ``lang``."""
    for page, first, second in ((built / "404.html", "es", "en"), (built / "en" / "404.html", "en", "es")):
        text = page.read_text(encoding="utf-8")
        header = text[text.index('<header'):text.index('</header>')]
        marked = '<span lang="es">Reglas</span> · <span lang="en">Rules</span>'  # each name in its own language
        assert header.count(marked) == 2 and "Reglas · Rules" not in header, page  # the logo's name, the title
        assert "Reglas · Rules" not in text.split("</title>", 1)[1], page
        menu = text[text.index('md-nav--primary'):text.index('<div class="md-content"')]
        links = re.findall(r'<a href="([^"]*)" class="md-nav__link">\s*<span class="md-ellipsis">\s*'
                           r'<span lang="(\w+)">([^<]*)</span>', menu)
        assert links == [(f"/{first}/index.html", first, {"es": "Inicio", "en": "Home"}[first]),
                         (f"/{first}/mini/index.html", first, {"es": "Mini Escaramuza", "en": "Mini Skirmish"}[first]),
                         (f"/{first}/other/index.html", first, links[2][2]),
                         (f"/{second}/index.html", second, {"es": "Inicio", "en": "Home"}[second]),
                         (f"/{second}/mini/index.html", second, {"es": "Mini Escaramuza", "en": "Mini Skirmish"}[second]),
                         (f"/{second}/other/index.html", second, links[5][2])], (page, links)
        sections = re.findall(r'<label class="md-nav__title" for="__nav_\d+">\s*<span class="md-nav__icon md-icon">'
                              r'</span>\s*<span lang="(\w+)">([^<]*)</span>', menu)
        assert sections == [(first, {"es": "Español", "en": "English"}[first]),
                            (second, {"es": "Español", "en": "English"}[second])], (page, sections)
        assert "shooting.html" not in menu and "glossary.html" not in menu  # no language's whole tree
    for lang in ("es", "en"):  # the pages keep their own language's name and menu
        page = (built / lang / "mini" / "shooting.html").read_text(encoding="utf-8")
        assert "Reglas · Rules" not in page and "glossary.html" in page


def test_the_theme_search_and_source_maps_are_not_shipped(built: Path) -> None:
    shipped = [str(p.relative_to(built)) for p in built.rglob("*") if p.is_file()]
    assert not [p for p in shipped if "lunr" in p or "/workers/" in p or p.endswith(".map")]
    assert any(p.startswith("assets/javascripts/bundle.") for p in shipped)


def test_the_menu_is_written_without_its_templates_indentation(built: Path) -> None:
    """The sidebars (menu and contents) come out of the pages' template block with single spaces; the page's
    content keeps its own line breaks."""
    page = (built / "es" / "mini" / "aim.html").read_text(encoding="utf-8")
    start = page.index('<div class="md-sidebar md-sidebar--primary"')
    end = page.index('<div class="md-content"', start)
    menu = page[start:page.rindex("</div>", start, end) + len("</div>")]  # the block, without the space after it
    assert "Apuntar" in menu and "\n" not in menu and "  " not in menu
    assert "\n" in page[end:]


@pytest.mark.parametrize("text", ["", " ", "\n\t ", "a", " a", "a ", "\n  <li>\xa0a\u2003b</li>\r\n", "a\x1c\x85b  "])
def test_the_menus_whitespace_is_collapsed_as_a_regular_expression_would(text: str) -> None:
    """The menu's filter (``kb_spaces``) splits and joins, as ``re.sub(r"\\s+", " ", ...)`` would collapse it."""
    import re

    from kb.mkdocs_plugin import _spaces

    assert str(_spaces(text)) == re.sub(r"\s+", " ", text)


# ---------------------------------------------------------------- safety and failures
EVIL = """\
id: g.evil
kind: rule
game: g
title: {es: "<script>alert(1)</script> Malo", en: "</title><script>alert(2)</script> Bad"}
summary: {es: "Un <img src=x onerror=alert(3)> resumen [x](javascript:alert(5))", en: A summary}
text: {es: "Texto </title><script>alert(4)</script> & más", en: Text}
tags: ["<script>alert(6)</script>"]
source: {doc: seed.txt, section: "<b onmouseover=alert(7)>x</b>"}
"""


def test_script_in_an_entry_is_shown_as_text(tree, tmp_path: Path) -> None:
    root = tree({"g/rules/evil.yaml": EVIL}, games=("g", "h"))  # two games: the titles name the entry's
    code, out, err = cli("--content", str(root), "build", "--config", MKDOCS, "--site-dir", str(tmp_path / "site"))
    assert code == 0, out + err  # raw-html is a content error: a plain build shows it, --strict refuses
    assert "error[raw-html]" in err
    for path in (tmp_path / "site").rglob("*"):
        if path.suffix in (".html", ".json", ".js", ".xml") and "assets" not in path.parts:
            text = path.read_text(encoding="utf-8")
            assert not re.search(r"<script>alert|<img src=x|<b onmouseover|javascript:alert\(5\)\"", text), path
    page = (tmp_path / "site" / "es" / "g" / "evil.html").read_text()
    assert '<h1 id="g-evil">&lt;script&gt;alert(1)&lt;/script&gt; Malo' in page
    assert re.search(r"<title>&lt;script&gt;alert\(1\)&lt;/script&gt; Malo · [^<]+ - ", page)  # «Entrada · Juego»
    assert "Texto &lt;/title&gt;&lt;script&gt;alert(4)&lt;/script&gt; &amp; más" in page
    en = (tmp_path / "site" / "en" / "g" / "evil.html").read_text()
    assert re.search(r"<title>&lt;/title&gt;&lt;script&gt;alert\(2\)&lt;/script&gt; Bad · [^<]+ - ", en)


BROKEN = """\
id: g.broken
kind: rule
game: g
title: {es: Roto, en: Broken}
text: {es: "Véase {@rule g.missing}.", en: "See {@rule g.missing}."}
source: {doc: seed.txt, section: x}
"""


def test_strict_build_fails_on_a_broken_link_and_keeps_the_old_site(tree, tmp_path: Path) -> None:
    root = tree({"g/rules/broken.yaml": BROKEN})
    site = tmp_path / "site"
    site.mkdir()
    (site / "old.txt").write_text("previous site")
    (site / ".kb-site").write_text("")  # an earlier build's site: one a build may replace
    code, out, err = cli("--content", str(root), "build", "--config", MKDOCS, "--site-dir", str(site), "--strict")
    assert code == 1
    assert "error[unresolved-link]: unresolved link to 'g.missing'" in err
    # a diagnostic says its own severity: never "WARNING - kb: ...: error[...]" (audit-cli defect 13)
    said = [line for line in err.splitlines() if "error[unresolved-link]" in line]
    assert said and all(line.startswith("kb: ") for line in said), err
    # the content's problems counted in our words, not MkDocs' "Aborted with 2 warnings in strict mode!"
    assert err.splitlines()[-1] == ("kb build: failed, the previous site is kept: --strict fails on 2 errors in the "
                                    "content (listed above)"), err
    assert (site / "old.txt").read_text() == "previous site"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site")] == []
    code, out, err = cli("--content", str(root), "build", "--config", MKDOCS, "--site-dir", str(site))
    assert code == 0, err
    assert not (site / "old.txt").exists() and (site / "es" / "g" / "broken.html").is_file()


def test_strict_build_stops_on_a_content_error_before_rendering_a_page(tree, tmp_path: Path) -> None:
    """The load already knows the content fails ``--strict``: no language is rendered first (audit-cli 12)."""
    root = tree({"g/rules/broken.yaml": BROKEN})
    code, out, err = cli("--content", str(root), "build", "--config", MKDOCS, "--site-dir", str(tmp_path / "site"),
                         "--strict")
    assert code == 1 and "error[unresolved-link]" in err
    assert err.splitlines()[-1].endswith("--strict fails on 2 errors in the content (listed above)"), err
    assert "worked examples verified" in out and "built in" not in out, out
    assert not (tmp_path / "site").exists()


def test_an_unnumbered_step_stands_outside_the_list_and_the_count_skips_it() -> None:
    items = [{"id": "triggers", "title": {"es": "Disparadores"}, "numbered": False},
             {"id": "actor", "title": {"es": "Actriz"}}, {"id": "defender", "title": {"es": "Defensora"}}]
    md = "\n".join(render_steps(sequence_steps(items, "es"), "es", lambda v: "".join(s.text for s in v)))
    html = markdown.markdown(md)
    assert html.index("Disparadores") < html.index("<ol>")
    assert re.findall(r"<li>.*?<strong>(\w+)</strong>", html) == ["Actriz", "Defensora"]
    assert "<ul>" not in html


def test_entry_page_shows_players_names_and_questions_of_its_language(tree) -> None:
    from kb.site.render import render_entry

    root = tree({"g/rules/disengage.yaml": """\
        id: g.disengage
        kind: rule
        game: g
        title: {es: Destrabarse, en: Disengaging}
        summary: {es: Salir de un combate., en: Leaving a melee.}
        source: {doc: seed.txt, section: s}
        also_called: {es: [salir del CaC, "<b>huir</b>"], en: [disengage]}
        questions: {es: ["¿Cómo saco a mi miniatura de un combate?", "se puede huir gratis"],
                    en: [How do I get out of melee?, get out of melee for free]}
        """})
    entry = KnowledgeBase.load(root).get("g.disengage")
    es = render_entry(entry, "es", lambda _i: None)
    en = render_entry(entry, "en", lambda _i: None)
    assert "*También llamado:* salir del CaC, &lt;b&gt;huir&lt;/b&gt;" in es       # content is data, escaped
    assert "## Responde a preguntas como {#player-questions}\n\n- ¿Cómo saco a mi miniatura de un combate?\n\n" in es
    assert "*Also called:* disengage" in en and "## Answers questions like {#player-questions}\n\n- How do I get out of melee?\n\n" in en
    assert "huir gratis" not in es and "for free" not in en   # a statement is never listed as a question
    assert "disengage" not in es.split("También llamado")[1].split("\n")[0]       # each page shows its own language's words


def _search_meta(page: Path) -> dict:
    """What a page's ``<meta name="kb-search">`` says (where its search data is, and which version)."""
    found = re.search(r'<meta name="kb-search" content="([^"]+)"', page.read_text(encoding="utf-8"))
    assert found, page
    return json.loads(html.unescape(found[1]))


def test_a_serve_rebuild_writes_only_the_pages_an_edit_changed(tmp_path: Path, monkeypatch) -> None:
    """What `mkdocs serve --dirty` does, step by step: start the plugins, build, then after an edit read the
    configuration afresh and build again, dirty (MkDocs' own serve loop; the plugin replaces none of it)."""
    import shutil

    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    from kb.mkdocs_plugin import KnowledgeBasePlugin

    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    monkeypatch.setenv("KB_CONTENT", str(content))
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")
    site, url, config_file = tmp_path / "site", "http://127.0.0.1:1/", str(Path(__file__).parents[1] / "mkdocs.yml")
    config = load_config(config_file, site_dir=str(site))
    config.site_url = url
    config.plugins.on_startup(command="serve", dirty=True)
    try:
        mkdocs_build(config, serve_url=url, dirty=True)
        pages = {p: p.stat().st_mtime_ns for p in site.rglob("*.html")}
        first, shown = _search_data(site / "es"), _search_meta(site / "es" / "mini" / "aim.html")
        aim = content / "mini" / "actions" / "aim.yaml"
        aim.write_text(aim.read_text(encoding="utf-8").replace("Apuntar cuesta una acción", "Apuntar cuesta dos acciones y un zafiro"),
                       encoding="utf-8")
        again = load_config(config_file, site_dir=str(site))
        again.site_url = url
        mkdocs_build(again, serve_url=url, dirty=True)
        rewritten = {str(p.relative_to(site)) for p, before in pages.items() if p.stat().st_mtime_ns != before}
        meanwhile = _search_data(site / "es")  # the last build's, while the edit's is made beside the server
        plugin = next(p for p in again.plugins.values() if isinstance(p, KnowledgeBasePlugin))
        refresh = plugin._sources.refresh  # the plugin's own state (the test reads it; the plugin reads no one's)
        assert refresh.wait(120) and [p.name for p in refresh.folder.iterdir()] == ["done-1"]  # asks serve to rebuild
        third = load_config(config_file, site_dir=str(site))
        third.site_url = url
        mkdocs_build(third, serve_url=url, dirty=True)  # what serve does when it sees that file
        searched = _search_data(site / "es")
    finally:
        config.plugins.on_shutdown()
    assert {d["id"]: d["summary"] for d in meanwhile["docs"]}["mini.aim"] == {d["id"]: d["summary"] for d in first["docs"]}["mini.aim"]
    # then the search data serves the edit: the entry's summary, and its new word among the indexed words
    summary = {d["id"]: d["summary"] for d in searched["docs"]}["mini.aim"]
    assert "Apuntar cuesta dos acciones" in summary and "una acción" not in summary
    assert first["words"].get("zafiro", [0])[1:] == [] and searched["words"]["zafiro"][1:]  # now a word of the index
    assert _search_meta(site / "es" / "mini" / "aim.html")["version"] != shown["version"]  # pages ask for the new data
    # the entry and the game page listing it (the preview is the first language's site)
    assert {"es/mini/aim.html", "es/mini/index.html"} <= rewritten
    assert "Apuntar cuesta dos acciones" in (site / "es" / "mini" / "aim.html").read_text(encoding="utf-8")
    assert "es/mini/shooting.html" not in rewritten and "es/concepts.html" not in rewritten
    assert len(rewritten) < len(pages) / 2, sorted(rewritten)


def test_mkdocs_serve_shows_a_yaml_edit(tmp_path: Path) -> None:
    """The real `mkdocs serve --dirty` (livereload on, as an author runs it) watches the content and rebuilds
    dirty after an edit. Not timed here: `tests/benchmarks/site_bench.py` measures the seconds."""
    import os
    import shutil
    import socket
    import subprocess
    import sys
    import time
    import urllib.request

    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tmp_path / "serve.log"
    env = {**os.environ, "KB_CONTENT": str(content), "NO_MKDOCS_2_WARNING": "1"}
    mkdocs = Path(sys.executable).parent / "mkdocs"
    with log.open("wb") as out:
        proc = subprocess.Popen([str(mkdocs), "serve", "--dirty", "-a", f"127.0.0.1:{port}"], cwd=Path(__file__).parents[1],
                                env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/es/mini/aim.html"

    def page() -> str:
        try:
            return urllib.request.urlopen(url, timeout=5).read().decode("utf-8")
        except OSError:
            return ""

    def wait_for(check, what: str) -> None:
        deadline = time.monotonic() + 300
        while not check():
            assert proc.poll() is None, f"mkdocs serve stopped:\n{log.read_text(errors='replace')[-3000:]}"
            assert time.monotonic() < deadline, f"{what}:\n{log.read_text(errors='replace')[-3000:]}"
            time.sleep(0.2)

    try:
        wait_for(lambda: "Apuntar" in page(), "the first build was never served")
        time.sleep(1.0)  # the watcher is up once the server serves
        before = len(log.read_text(errors="replace"))
        aim = content / "mini" / "actions" / "aim.yaml"
        aim.write_text(aim.read_text(encoding="utf-8").replace("Apuntar cuesta una acción", "Apuntar cuesta dos acciones"),
                       encoding="utf-8")
        wait_for(lambda: "Apuntar cuesta dos acciones" in page(), "the edit never showed")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    rebuild = log.read_text(errors="replace")[before:]
    assert "page(s) changed" in rebuild, rebuild  # a dirty rebuild: only what the edit changed was written
    assert "not included in" not in rebuild, rebuild


# ---------------------------------------------------------------- block anchors (issue 29): the same ids in both languages
def test_blocks_are_paragraphs_and_list_items() -> None:
    from kb.view.anchors import blocks, chunks

    text = "One\nline two.\n\n- a\n  more of a\n- b\n\n1. c\n2) d\n\n| x | y |\n|---|---|\n| 1 | 2 |\n\nLast."
    assert blocks(text) == ["One\nline two.", "- a\n  more of a", "- b", "1. c", "2) d", "| x | y |\n|---|---|\n| 1 | 2 |", "Last."]
    assert [len(c) for c in chunks(text)] == [1, 2, 2, 1, 1]
    assert blocks("\n\n") == [] and blocks("Only.\n") == ["Only."]


def test_each_block_of_an_entry_carries_its_id_in_both_languages(tree) -> None:
    from kb.site.render import render_entry
    from kb.view.anchors import passages
    from kb.view.entry import entry_view

    root = tree({"g/rules/r.yaml": """\
        id: g.r
        kind: rule
        game: g
        title: {es: Regla, en: Rule}
        summary: {es: "Resumen.\\n", en: "Summary.\\n"}
        source: {doc: seed.txt, section: s}
        text:
          es: "Primero.\\n\\n- uno\\n  sigue\\n- dos\\n\\n| a | b |\\n|---|---|\\n| 1 | 2 |\\n\\nÚltimo {@rule g.r}.\\n"
          en: "First.\\n\\n- one\\n  goes on\\n- two\\n\\n| a | b |\\n|---|---|\\n| 1 | 2 |\\n\\nLast {@rule g.r}.\\n"
        notes: {es: "Nota uno.\\n\\nNota dos.", en: "Note one.\\n\\nNote two."}
        see_also: [g.r]
        """})
    entry = KnowledgeBase.load(root).get("g.r")
    ids = {}
    for lang in ("es", "en"):
        md = render_entry(entry, lang, lambda _i: None, link_to=lambda _t, _a: "r.md")
        page = markdown.markdown(md, extensions=["attr_list", "md_in_html", "admonition", "tables", "toc"])
        ids[lang] = re.findall(r'<(\w+) id="([^"]+)"', page)
        shown = {a for _tag, a in ids[lang]}
        assert [a for a, _t in passages(entry_view(entry, lang, lambda _i: None))] == [
            "summary", "text-1", "text-2", "text-3", "text-4", "text-5", "notes-1", "notes-2", "see-also", "source"]
        assert {a for a, _t in passages(entry_view(entry, lang, lambda _i: None))} <= shown  # every passage can be linked
        assert "{:" not in page and page.count('id="text-') == 5
    assert ids["es"] == ids["en"]
    assert ("li", "text-2") in ids["es"] and ("li", "text-3") in ids["es"] and ("div", "text-4") in ids["es"]
    assert ("p", "summary") in ids["es"] and ("p", "notes-2") in ids["es"] and ("h2", "see-also") in ids["es"]


def test_entry_pages_have_the_same_ids_in_both_languages(built: Path, kb: KnowledgeBase) -> None:
    from kb.view.anchors import passages
    from kb.view.entry import entry_view

    checked = 0
    for page in sorted((built / "es").rglob("*.html")):
        twin = built / "en" / page.relative_to(built / "es")
        es, en = (re.findall(r'\sid="([^"]+)"', p.read_text(encoding="utf-8")) for p in (page, twin))
        assert es == en, page
        assert len(set(es)) == len(es), page  # no id twice on a page
        checked += 1
    assert checked > 10
    page = (built / "en" / "mini" / "shooting.html").read_text(encoding="utf-8")
    for anchor, _text in passages(entry_view(kb.entry("mini.shooting"), "en", lambda i: kb.get(i).title if kb.get(i) else None)):
        assert f' id="{anchor}"' in page, anchor
    assert 'id="referenced-by"' in page and 'id="text-1"' in page


@pytest.mark.parametrize("edit", ["summary", "cross-game link", "title", "shared concept"])
def test_the_preview_makes_again_only_pages_an_edit_can_change_and_gets_the_same_site(tmp_path: Path, edit: str) -> None:
    """``build_site(..., before=...)`` (``mkdocs serve --dirty``) keeps the other games' pages but gives exactly the
    site a full build gives: an edit of one game's entry, a new link from it to another game's entry (whose
    "referenced by" changes), a new title (the menu changes: nothing kept), an edit of the shared concepts."""
    import shutil

    content = tmp_path / "content"
    shutil.copytree(FIXTURE, content)
    old = KnowledgeBase.load(content, use_cache=False)
    old_results = old.run_examples()
    before = {lang: build_site(old, old_results, lang) for lang in ("es", "en")}
    shooting = content / "mini" / "rules" / "shooting.yaml"
    text = shooting.read_text(encoding="utf-8")
    if edit == "summary":
        shooting.write_text(text.replace("sacar 8 o más", "sacar ocho o más"), encoding="utf-8")
    elif edit == "cross-game link":
        shooting.write_text(text.replace("Sin LdV no se puede disparar.",
                                         "Sin LdV ({@term other.sight|visibilidad}) no se puede disparar."),
                            encoding="utf-8")
    elif edit == "title":
        shooting.write_text(text.replace("{es: Disparo,", "{es: Disparar,"), encoding="utf-8")
    else:
        concept = content / "common" / "concepts" / "line-of-sight.yaml"
        concept.write_text(concept.read_text(encoding="utf-8").replace("es: ", "es: Nota. ", 1), encoding="utf-8")
    kb = KnowledgeBase.load(content, use_cache=False)
    results = kb.run_examples()
    for lang in ("es", "en"):
        full = build_site(kb, results, lang)
        quick = build_site(kb, results, lang, before=(before[lang], basis(old, results_by_entry(old_results))))
        assert [(p.path, p.markdown) for p in quick.pages] == [(p.path, p.markdown) for p in full.pages]
        assert quick.nav == full.nav
        kept = {p.path for p in quick.pages if any(p is q for q in before[lang].pages)}
        if edit == "summary" or (edit == "title" and lang == "en"):  # the other game's pages are kept (the English
            # menu is the same when only the Spanish title changed); the edited game's and the shared pages made again
            assert kept == {p.path for p in before[lang].pages if p.path.startswith("other/")}
        elif edit == "cross-game link":  # ... except the page of the entry now linked to
            assert "other/sight.md" not in kept and "other/index.md" in kept
        else:
            assert kept == set()
        if edit == "cross-game link":  # the edit did change that page ("referenced by")
            assert full.page("other/sight.md") != before[lang].page("other/sight.md")


def test_the_theme_bundle_stays_blocking_before_a_script_that_is_not_deferred() -> None:
    block = ('<script src="../assets/javascripts/bundle.a5f9d56c.min.js"></script><script src="../pack.js" defer></script>'
             '<script src="../other.js" async></script>')
    assert defer_theme_bundle(block) == ('<script src="../assets/javascripts/bundle.a5f9d56c.min.js" defer></script>'
                                         '<script src="../pack.js" defer></script><script src="../other.js" async></script>')
    own = block + '<script src="../pack.js"></script>'  # a pack's own script may use the theme as it runs
    assert defer_theme_bundle(own) == own


def test_the_script_loader_keeps_its_urls_out_of_markup() -> None:
    tag = app.script_loader(["a.js", "</script><script>alert(1)//.js"])
    assert tag.count("</script>") == 1 and tag.count("<script>") == 1 and tag.endswith("</script>")
    urls = json.loads(re.search(r"\}\)\((\[.*\])\);</script>$", tag)[1])
    assert urls == ["a.js", "</script><script>alert(1)//.js"]




def test_a_maskable_icon_keeps_its_pips_inside_the_safe_zone() -> None:
    """Audit 2, defect 12: a launcher keeps only the circle of radius 0.4 of a maskable icon. Its pips (white) lie well
    inside it and its colour reaches every corner; the plain icon's corner pips reach past 0.36 of the side."""
    import zlib

    from kb.site.app import SAFE_ZONE, THEME_COLOUR, icon_png

    def white(png: bytes, size: int) -> list[tuple[int, int]]:
        raw = zlib.decompress(png[png.index(b"IDAT") + 4:png.index(b"IEND") - 8])
        rows = [raw[y * (3 * size + 1) + 1:(y + 1) * (3 * size + 1)] for y in range(size)]
        return [(x, y) for y, row in enumerate(rows) for x in range(size) if row[3 * x:3 * x + 3] == b"\xff\xff\xff"]

    def reach(png: bytes, size: int) -> float:
        return max(((x + 0.5 - size / 2) ** 2 + (y + 0.5 - size / 2) ** 2) ** 0.5 for x, y in white(png, size)) / size

    for size in (192, 512):
        masked = icon_png(size, maskable=True)
        assert reach(masked, size) < SAFE_ZONE * 0.7  # padding around the pips, not only inside the mask
        assert reach(icon_png(size), size) > SAFE_ZONE * 0.9
        raw = zlib.decompress(masked[masked.index(b"IDAT") + 4:masked.index(b"IEND") - 8])
        assert raw[1:4] == bytes.fromhex(THEME_COLOUR[1:])  # the colour is full-bleed: the mask never shows a white corner
