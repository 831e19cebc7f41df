"""The engine's interface strings: gettext catalogs per language, numbers and plurals through Babel."""

from __future__ import annotations

import gettext as gettext_module
import re
import shutil
import subprocess
from fractions import Fraction
from pathlib import Path

import polib
import pytest

from kb.i18n.catalogs import catalog_problems, placeholders
from kb.core.locale import LANGS, catalog_path, fill, join, ngettext, number, pgettext, percent
from kb.mechanics import Trace

from conftest import cli

KB = Path(__file__).resolve().parent.parent / "kb"


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="msgfmt not installed")
@pytest.mark.parametrize("lang", LANGS)
def test_catalog_passes_msgfmt_check(lang: str) -> None:
    run = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(catalog_path(lang))], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_catalogs_hold_the_same_messages_all_translated() -> None:
    """The check `kb check` and `kb build` run (:func:`kb.i18n.catalogs.catalog_problems`) finds nothing in the
    engine's catalogs: no fuzzy or empty message, none one catalog lacks, every plural form there."""
    assert [d.format() for d in catalog_problems()] == []


def test_each_translation_keeps_its_messages_placeholders() -> None:
    """A word of the catalog filled by the code (``{n}``, ``{game}``…) says the same placeholders in both languages
    (and in each plural form): a translator's dropped or misspelt ``{n}`` would print a wrong sentence.
    :func:`kb.i18n.catalogs.catalog_problems` compares them (``catalog-placeholder``); here, that it has words to
    compare."""
    assert [d.format() for d in catalog_problems() if d.code == "catalog-placeholder"] == []
    spanish = polib.pofile(str(catalog_path("es")))
    assert sum(bool(placeholders(e.msgstr + "".join(e.msgstr_plural.values()))) for e in spanish) >= 30


def _broken_catalogs(tmp_path: Path) -> Path:
    """Copies of the catalogs with a translator's mistakes: a fuzzy message, a renamed placeholder in one plural
    form and a third form, a placeholder of the English renamed, an empty message, a message the English lacks."""
    for lang in LANGS:
        (tmp_path / lang / "LC_MESSAGES").mkdir(parents=True)
    es = catalog_path("es").read_text(encoding="utf-8")
    es = es.replace('msgctxt "translators"\nmsgid "title"', '#, fuzzy\nmsgctxt "translators"\nmsgid "title"', 1)
    es = es.replace('msgstr[1] "{n} entradas"', 'msgstr[1] "{x} entradas"\nmsgstr[2] "{n} más"', 1)
    es = es.replace('msgid "az"\nmsgstr "Índice alfabético"', 'msgid "az"\nmsgstr ""', 1)
    es += '\nmsgctxt "site"\nmsgid "only_here"\nmsgstr "Solo aquí"\n'
    en = catalog_path("en").read_text(encoding="utf-8")
    en = en.replace('msgstr[1] "{ok} of {n} worked examples', 'msgstr[1] "{ok} of {total} worked examples', 1)
    (tmp_path / "es/LC_MESSAGES/kb.po").write_text(es, encoding="utf-8")
    (tmp_path / "en/LC_MESSAGES/kb.po").write_text(en, encoding="utf-8")
    return tmp_path


def _line(path: Path, start: str) -> int:
    """The number of the first line of ``path`` that starts with ``start``."""
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if line.startswith(start))


def test_kb_check_says_each_mistake_of_the_catalogs_at_its_line(tree, tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Audit-trans D2: a fuzzy message (the page showed its key «title»), a placeholder renamed (the page printed
    «{x} entradas»), a plural form too many, an empty message, one the other catalog lacks: `kb check` names each,
    located at file.po:line(:column), as an error (exit 1)."""
    from kb.i18n import catalogs

    root = tree({})
    locale_dir = _broken_catalogs(tmp_path / "locale")
    monkeypatch.setattr(catalogs, "catalog_path", lambda lang: locale_dir / lang / "LC_MESSAGES" / "kb.po")
    es, en = locale_dir / "es/LC_MESSAGES/kb.po", locale_dir / "en/LC_MESSAGES/kb.po"
    code, out, err = cli("check", str(root))
    got = [line.split(": ", 2)[:2] for line in out.splitlines()]
    es_at = {k: f"locale/es/LC_MESSAGES/kb.po:{_line(es, v)}" for k, v in (
        ("x", 'msgstr[1] "{x} entradas'), ("form", 'msgstr[2] "{n} más'), ("az", 'msgid "az"'),
        ("title", 'msgid "title"'), ("only", 'msgid "only_here"'))}
    total = 'msgstr[1] "{ok} of {total}'
    en_at = f"locale/en/LC_MESSAGES/kb.po:{_line(en, total)}"
    assert got == [
        [f"{en_at}:20", "error[catalog-placeholder]"],
        [f"{es_at['x']}:12", "error[catalog-placeholder]"],
        [f"{es_at['form']}:1", "error[catalog-plural-forms]"],
        [f"{es_at['az']}:1", "error[catalog-untranslated]"],
        [f"{es_at['title']}:1", "error[catalog-fuzzy]"],
        [f"{es_at['only']}:1", "error[catalog-missing]"],
    ], out
    assert code == 1 and "6 error(s)" in err
    assert "'title' (msgctxt 'translators') is marked fuzzy, so the site leaves it out and shows 'title'" in out
    assert "has the placeholders {n} {x}, its msgid has {n}" in out


def test_a_string_misread_in_a_catalog_is_located(tmp_path: Path) -> None:
    """An unclosed quote in a msgstr (Babel's reader silently dropped the last letter: «Estado de la traducció»)."""
    for lang in LANGS:
        (tmp_path / lang).mkdir()
        (tmp_path / lang / "kb.po").write_bytes(catalog_path(lang).read_bytes())
    es = tmp_path / "es/kb.po"
    es.write_text(es.read_text(encoding="utf-8").replace('"Estado de la traducción"', '"Estado de la traducción'),
                  encoding="utf-8")
    found = catalog_problems({lang: tmp_path / lang / "kb.po" for lang in LANGS})
    assert [(d.code, d.location.line) for d in found] == [
        ("catalog-syntax", _line(es, 'msgstr "Estado de la traducción'))]
    assert "error[catalog-syntax]: the string is not closed on its line" in found[0].format()


def test_kb_build_logs_the_catalogs_mistakes(tree, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                              caplog: pytest.LogCaptureFixture) -> None:
    """The build says them too, located, among the content's errors (it had printed Babel's unlocated "Problem on
    line 504" only)."""
    import logging

    from kb.api import KnowledgeBase
    from kb.i18n import catalogs
    from kb.mkdocs_plugin import KnowledgeBasePlugin

    root = tree({})
    locale_dir = _broken_catalogs(tmp_path / "locale")
    monkeypatch.setattr(catalogs, "catalog_path", lambda lang: locale_dir / lang / "LC_MESSAGES" / "kb.po")
    plugin = KnowledgeBasePlugin()
    plugin.load_config({})
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.kb"):
        plugin._report(KnowledgeBase.load(root), None)
    assert sorted(d.code for d in plugin.warned) == ["catalog-fuzzy", "catalog-missing", "catalog-placeholder",
                                                     "catalog-placeholder", "catalog-plural-forms",
                                                     "catalog-untranslated"]
    assert any("kb.po:" in r.getMessage() and "catalog-fuzzy" in r.getMessage() for r in caplog.records)


def test_every_label_the_code_asks_for_is_in_both_catalogs() -> None:
    asked = set()
    for path in (KB / "site").glob("*.py"):
        src = path.read_text(encoding="utf-8")
        asked |= {("label", k) for k in re.findall(r"\blabel\(['\"]([a-z_]+)['\"],", src)}
        asked |= {("site", k) for k in re.findall(r"\bt\(ctx, ['\"]([a-z_]+)['\"]\)", src)}
    assert len(asked) > 30
    for lang in LANGS:
        po = polib.pofile(str(catalog_path(lang)))
        have = {(e.msgctxt, e.msgid) for e in po}
        assert not asked - have, sorted(asked - have)



def test_every_word_the_translators_page_asks_for_is_in_both_catalogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The translators' page takes its own words from the catalogs (``msgctxt "translators"``), as the rest of the
    site does: rendered in both languages through every branch (all current; a list item changed, one taken out; a
    paragraph added beside an English that follows the Spanish; no earlier Spanish; a long rewrite; missing fields),
    it asks for every word the catalogs hold under that context and for none they lack, and the Spanish page shows
    none of the English ones (a word missing from a catalog would read as its key)."""
    from kb.api import KnowledgeBase
    from kb.site import translators
    from kb.site.structure import SiteContext

    asked: set[str] = set()

    def recorded(lang: str, context: str, key: str) -> str:
        if context == translators.CONTEXT:
            asked.add(key)
        return pgettext(lang, context, key)

    monkeypatch.setattr(translators, "pgettext", recorded)
    kb = KnowledgeBase.load(KB.parent / "tests" / "fixtures" / "site" / "content", use_cache=False)
    games = {"mini": {"lang": "en", "fields": 10, "current": 5, "stale": 4, "missing": 1}}
    rewrite = ["Antes: " + " ".join(f"{w}{i % 97}" for i in range(2600)) + "." for w in ("p", "q")]
    pending = [
        {"entry": "mini.shooting", "field": "text", "status": "stale", "source": "Uno.\n\n- a\n- b y c\n",
         "previous": "Uno.\n\n- a\n- b\n- d\n"},
        {"entry": "mini.shooting", "field": "summary", "status": "stale", "source": "Uno cambiado.\n\nDos.",
         "previous": "Uno."},
        {"entry": "mini.aim", "field": "summary", "status": "stale", "source": "Otro.", "previous": None},
        {"entry": "mini.aim", "field": "title", "status": "stale", "source": rewrite[1], "previous": rewrite[0]},
        {"entry": "mini", "field": "summary", "status": "missing"},
    ]
    pages = {lang: [translators.translators_page(SiteContext(kb, {}, lang), {"games": games, "pending": rows}).markdown
                    for rows in (pending, [])] for lang in LANGS}
    for lang in LANGS:
        po = polib.pofile(str(catalog_path(lang)))
        have = {e.msgid: e.msgstr for e in po if e.msgctxt == translators.CONTEXT}
        assert asked == set(have), (sorted(asked - set(have)), sorted(set(have) - asked))
    english = {e.msgid: e.msgstr for e in polib.pofile(str(catalog_path("en"))) if e.msgctxt == translators.CONTEXT}
    spanish = "\n".join(pages["es"])
    assert [k for k, v in english.items() if v not in {"Total"} and v.split("{")[0].strip() in spanish] == []

def test_every_word_the_search_dialog_asks_for_is_in_both_catalogs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search dialog's words come from the catalogs (``msgctxt "search"``, each with a comment saying where it
    appears), as the rest of the site's do: a page's ``<meta name="kb-search">`` carries, in the page's language and in
    the order the code lists them, exactly the catalogs' words of that context, every one said differently in Spanish
    and English (a word missing from a catalog would read as its key)."""
    import html
    import json

    from kb.site import search_box

    asked: set[str] = set()

    def recorded(lang: str, context: str, key: str) -> str:
        if context == search_box.CONTEXT:
            asked.add(key)
        return pgettext(lang, context, key)

    monkeypatch.setattr(search_box, "pgettext", recorded)
    said = {}
    for lang in LANGS:
        tag = search_box.meta_tag(search_box.SearchData(lang, {}, "v"), "mini/shooting.md")
        meta = json.loads(html.unescape(re.fullmatch(r'<meta name="kb-search" content="([^"]*)">', tag).group(1)))
        entries = [e for e in polib.pofile(str(catalog_path(lang))) if e.msgctxt == search_box.CONTEXT]
        assert list(meta["labels"]) == list(search_box.LABEL_KEYS)
        assert meta["labels"] == {e.msgid: e.msgstr for e in entries} and meta["label"] == meta["labels"]["search"]
        assert all(e.comment for e in entries), [e.msgid for e in entries if not e.comment]
        said[lang] = meta["labels"]
    assert asked == set(search_box.LABEL_KEYS)
    assert [k for k in asked if said["es"][k] == said["en"][k]] == []


def test_numbers_percentages_lists_per_locale() -> None:
    assert percent(Fraction(63, 200), "es") == "31,5\u00a0%"
    assert percent(Fraction(63, 200), "en") == "31.5%"
    assert number(5.5, "es") == "5,5" and number(5.5, "en") == "5.5"
    assert join(["a", "b", "c"], "es") == "a, b y c"
    assert pgettext("es", "label", "see_also") == "Véase también"


def test_plurals_come_from_the_catalog() -> None:
    assert ngettext("es", "{n} entry", "{n} entries", 1) == "1 entrada"
    assert ngettext("es", "{n} entry", "{n} entries", 3) == "3 entradas"
    assert ngettext("en", "{n} entry", "{n} entries", 1) == "1 entry"


def test_trace_plural_fields_follow_the_number() -> None:
    trace = Trace()
    trace.add("Sobran {e} {e:p:punto|puntos}", "{e} {e:p:point|points} too many", e=1)
    trace.add("Sobran {e} {e:p:punto|puntos}", "{e} {e:p:point|points} too many", e=2)
    assert [s.text.es for s in trace.steps] == ["Sobran 1 punto", "Sobran 2 puntos"]
    assert trace.steps[1].say("en", str) == "2 points too many"


def test_lists_read_by_style_and_language_each_time() -> None:
    for _ in range(2):  # the second time from memory: the same words
        assert join(["a", "b", "c"], "es") == "a, b y c"
        assert join(["a", "b", "c"], "es", style="or") == "a, b o c"
        assert join(["a", "b", "c"], "en") == "a, b, and c"
        assert join(["a", "b", "c"], "en", style="or") == "a, b, or c"
    assert join([], "en") == ""


def test_the_engines_words_for_a_player_read_as_a_player_writes() -> None:
    """Audit 2, defect 9: the add button adds one row («Añadir tirada enfrentada», not «Añadir a …», which reads
    "add to the roll"), a checked example says what was checked (not «Comprobado en la compilación»), a field held
    fixed says so (not «valor del ejemplo»), another case names the rule that settles it (not «Es otro caso»)."""
    from kb.view.worked import refusal_sentence

    assert [pgettext(lang, "site", "calc_add").format(label="x") for lang in LANGS] == ["Añadir x", "Add x"]
    assert [pgettext(lang, "site", "calc_fixed") for lang in LANGS] == ["fijo en este ejemplo", "fixed in this example"]
    assert [pgettext(lang, "label", "verified") for lang in LANGS] == ["Comprobado: la regla da esta respuesta",
                                                                        "Checked: the rule gives this answer"]
    assert [refusal_sentence("elsewhere", "R.", "Tirada", lang) for lang in LANGS] == [
        "Esto lo resuelve otra regla: R. Consulta Tirada.", "Another rule settles this: R. See Tirada."]
    from kb.site.pages import verified_line

    home = [verified_line(lang, 551, 551) for lang in LANGS]
    assert home == ["551 de 551 ejemplos resueltos comprobados aplicando sus reglas.",
                    "551 of 551 worked examples checked by running their rules."]  # not «en esta compilación»
    # both numbers written alike, as the language writes them (the checked count had been printed raw: «12000 de 12.000»)
    assert [verified_line(lang, 11999, 12000) for lang in LANGS] == [
        "11.999 de 12.000 ejemplos resueltos comprobados aplicando sus reglas.",
        "11,999 of 12,000 worked examples checked by running their rules."]
    assert not any(w in pgettext(lang, "site", "intro") for lang in LANGS for w in ("compilación", "build"))
    # a calculator's refusal names no entry: no dangling «Consulta .» (the built site had it in 5 answers' files)
    assert [refusal_sentence("elsewhere", "R.", None, lang) for lang in LANGS] == [
        "Esto lo resuelve otra regla: R.", "Another rule settles this: R."]


STRAY_MECHANICS = '''\
from fractions import Fraction

from kb.mechanics import Chance, RuleError, Trace, between, outcome, resolver


@resolver("g.hit", ranges={"roll": between(2, 12), "skill": between(2, 12, 2)}, outputs={"hit": "whether it hits"},
          labels={"roll": ("tirada", "roll"), "skill": ("habilidad", "skill"), "hit": ("impacta", "hits")})
def hit(roll: int, skill: int):
    """A hit when the roll reaches the skill; a roll of 2 is another entry's case."""
    if roll == 2:
        raise RuleError("fumble", "un 2 es una pifia", "a 2 is a fumble", kind="elsewhere")
    ways = sum(1 for a in range(1, 7) for b in range(1, 7) if a + b >= skill)
    return outcome(Trace(), Chance.of(Fraction(ways, 36), "impactar", "hitting"), hit=roll >= skill)
'''

STRAY_ENTRIES = {
    "g/rules/hitting.yaml": """\
id: g.hitting
kind: rule
game: g
title: {es: Impactar, en: Hitting}
source: {doc: seed.txt, section: s}
examples:
  - id: hits
    mechanic: g.hit
    given: {roll: 7, skill: 6}
    expect: {hit: true}
  - id: fumbles
    mechanic: g.hit
    given: {roll: 2, skill: 6}
    expect_error: {code: fumble, kind: elsewhere, see: g.fumble}
""",
    "g/rules/fumble.yaml": """\
id: g.fumble
kind: rule
game: g
title: {es: Pifia, en: Fumble}
source: {doc: seed.txt, section: s}
""",
}


STRAY = "{x} {n.__class__}"
"""A translator's stray braces: a name no code fills, and a look-up ``str.format`` would make."""


class _Stray(gettext_module.NullTranslations):
    """A catalog whose every word the code fills (one holding a ``{name}``) ends in :data:`STRAY`."""

    def __init__(self, real: gettext_module.NullTranslations) -> None:
        super().__init__()
        self.real = real

    @staticmethod
    def _stray(word: str) -> str:
        return f"{word} {STRAY}" if re.search(r"\{\w+\}", word) else word

    def gettext(self, message: str) -> str:
        return self._stray(self.real.gettext(message))

    def pgettext(self, context: str, message: str) -> str:
        return self._stray(self.real.pgettext(context, message))

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._stray(self.real.ngettext(singular, plural, n))

    def npgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return self._stray(self.real.npgettext(context, singular, plural, n))


@pytest.mark.parametrize("lang", LANGS)
def test_a_stray_brace_in_a_catalog_word_shows_as_written_wherever_the_engine_fills_one(
        tree, monkeypatch: pytest.MonkeyPatch, lang: str) -> None:
    """Every word of the catalogs the engine fills (a worked example's odds and refusal, the home page's count of
    checked examples, the translators' page's guide, a calculator's ranges and odds) goes through
    :func:`kb.core.locale.fill`: a translator's stray ``{x}`` or ``{n.__class__}`` shows as written (and the
    placeholder test above names the word), never a ``KeyError`` traceback that stops the build nor a look-up, as
    ``str.format`` made."""
    import html

    from kb.api import KnowledgeBase
    from kb.core import locale
    from kb.site.calc import calc_site
    from kb.site.pages import build_site

    def said(template: str, **values: str) -> str:
        return f"{fill(template, values)} {STRAY}"

    kb = KnowledgeBase.load(tree({"g/mechanics.py": STRAY_MECHANICS, **STRAY_ENTRIES}))
    results = kb.run_examples()
    assert [r.passed for r in results] == [True, True]
    event, reason, fumble = {"es": ("impactar", "Un 2 es una pifia.", "Pifia"),
                             "en": ("hitting", "A 2 is a fumble.", "Fumble")}[lang]
    odds = {p: dict(event=event, fraction=f"{p.numerator}/{p.denominator}", percent=percent(p, lang))
            for p in (Fraction(13, 18), Fraction(5, 12))}
    want = {
        "g/hitting.md": [said(locale.gettext(lang, "Chance of {event}: {fraction} ≈ {percent}."), **odds[Fraction(13, 18)]),
                         said(locale.gettext(lang, "Another case: {reason} See {entry}."), reason=reason, entry=fumble)],
        "index.md": [said(ngettext(lang, "{ok} of {n} worked example verified by this build.",
                                   "{ok} of {n} worked examples verified by this build.", 2), ok="2")],
        "translators.md": [said(pgettext(lang, "translators", "how"), guide="`docs/translators.md`")],
        "calculators": [said(pgettext(lang, "site", "calc_range"), minimum="2", maximum="12"),
                        said(pgettext(lang, "site", "calc_range_step"), minimum="2", maximum="12", step="2"),
                        said(pgettext(lang, "site", "calc_chance"), **odds[Fraction(5, 12)]),
                        said(pgettext(lang, "site", "calc_chance_whole"), event=event, percent=percent(Fraction(1), lang))],
    }
    real = locale.translations(lang)
    monkeypatch.setattr(locale, "translations", lambda _lang: _Stray(real))
    pages = {p.path: html.unescape(p.markdown) for p in build_site(kb, results, lang).pages}
    calc = calc_site(kb, lang)
    pages["calculators"] = "\n".join([*calc.files.values(), *(f for forms in calc.forms.values() for f in forms)])
    assert {path: [w for w in words if w not in pages[path]] for path, words in want.items()} == {
        path: [] for path in want}
