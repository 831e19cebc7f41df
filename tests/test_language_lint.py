"""The language lint over every page of the site built from the bundled content (both languages).

A Spanish page must show no raw id, no identifier of the resolvers' vocabulary and no generated
English; an English page no raw id and no generated Spanish. Code spans and blocks, which a page
shows on purpose (an entry id, a source file), and text marked ``lang`` are left out.
"""

from __future__ import annotations

import polib
import pytest

from kb.api import KnowledgeBase
from kb.core.locale import LANGS, catalog_path
from kb.core.model import Text
from kb.site.lint import catalog_phrases, identifiers, lint_page
from kb.site.pages import build_site


def _catalog(lang: str) -> dict[str, str]:
    po = polib.pofile(str(catalog_path(lang)))
    return {f"{e.msgctxt}|{e.msgid}": (e.msgstr or e.msgstr_plural.get(1, "")) for e in po}


@pytest.fixture(scope="module")
def bundled():
    kb = KnowledgeBase.load()
    results = kb.run_examples()
    vocabulary: dict[str, Text] = {}
    for name in kb.registry.names():
        for word, label in kb.registry.get(name).labels.items():
            vocabulary.setdefault(word, label)
    names = {k: Text(v["es"], v.get("en")) for g in kb.games.values() for k, v in (g.data.get("names") or {}).items()}
    summaries = {lang: [(g.data.get("summary") or {}).get(lang, "") for g in kb.games.values()] for lang in LANGS}
    sites = {lang: build_site(kb, results, lang) for lang in LANGS}
    return kb, sites, vocabulary, names, summaries


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_speaks_one_language(bundled, lang: str) -> None:
    kb, sites, vocabulary, names, summaries = bundled
    other = "en" if lang == "es" else "es"
    foreign = catalog_phrases(_catalog(lang), _catalog(other))
    ids = identifiers(kb.entries.values(), vocabulary, lang, summaries[lang], names)
    assert {"guild-guard", "melee_ranges_a"} <= ids  # the lint knows the data's ids ...
    if lang == "es":
        assert {"hound", "walk"} <= ids and "Worked examples" in foreign  # ... the vocabulary and the other catalog
    problems = [f"{page.path}: {finding}" for page in sites[lang].pages
                for finding in lint_page(page.markdown, ids, foreign)]
    assert not problems, "\n".join(problems[:40])


def test_the_lint_finds_what_it_should() -> None:
    page = ("---\ntitle: x\n---\n# Disparo {#hunt-begins-shoot}\n\n*Acción* · `hunt-begins.shoot`\n\n"
            "**Situación.** Atacante: guild-guard; acción: walk.\n\nVéase hunt-begins.aim.\n\n## Worked examples\n\n"
            "```\nmelee_ranges_a\n```\n\nEn inglés: <span lang=\"en\">walk</span>\n")
    found = {(f.what, f.word) for f in lint_page(page, {"guild-guard", "walk", "melee_ranges_a"}, {"Worked examples"})}
    assert found == {("identifier", "guild-guard"), ("identifier", "walk"), ("raw-id", "hunt-begins.aim"),
                     ("other-language", "Worked examples")}


def test_ids_the_prose_uses_are_not_flagged() -> None:
    from kb.core.model import Entry  # noqa: F401  (entries come from a real load below)

    kb = KnowledgeBase.load()
    vocab = {"close-combat": Text("combate cuerpo a cuerpo", "close combat")}
    assert "close-combat" not in identifiers(kb.entries.values(), vocab, "en")  # English prose says "close-combat"


def test_the_translators_page_lists_stale_fields_as_code(tmp_path) -> None:
    """A stale field is named by its id and field name, shown as code, so the page stays in one language."""
    import shutil
    from pathlib import Path

    root = tmp_path / "content"
    shutil.copytree(Path(__file__).parent / "fixtures" / "site" / "content", root)
    aim = root / "mini" / "actions" / "aim.yaml"
    aim.write_text(aim.read_text(encoding="utf-8").replace("Apuntar", "Apuntar con calma"), encoding="utf-8")
    kb = KnowledgeBase.load(root, use_cache=False)
    assert any(d.code == "stale-translation" for d in kb.diagnostics)
    for lang in LANGS:
        page = next(p for p in build_site(kb, kb.run_examples(), lang).pages if p.path.endswith("translators.md"))
        assert "mini.aim" in page.markdown
        assert [f for f in lint_page(page.markdown, identifiers=["mini.aim", "title"]) if "mini.aim" in str(f)] == []
