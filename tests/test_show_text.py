"""`kb show` prints terminal text: no site Markdown, HTML or anchors, for every bundled entry in both languages."""

from __future__ import annotations

import re

from kb.api import KnowledgeBase
from kb.site.text import render_text
from kb.view.worked import name_finder

MARKUP = re.compile(r"\{#|!!!|\*\*|\]\(|&#|&lt;|&gt;|&amp;|`|\{@|<span|<[a-z]+[ >]|^#+ |\|---|^\| ")


def test_every_entry_prints_as_plain_text_in_both_languages() -> None:
    kb = KnowledgeBase.load()
    results: dict = {}
    for r in kb.run_examples():
        results.setdefault(r.entry.id, {})[r.example.id] = r
    titles = lambda i: kb.get(i).title if kb.get(i) else None  # noqa: E731
    found = []
    for e in kb.entries.values():
        meta = kb.games.get(e.game)
        names = name_finder(e.game, meta.name if meta else None, meta.data.get("names") if meta else None, kb.entries)
        for lang in ("es", "en"):
            text = render_text(e, lang, titles, kb.backlinks(e.id), results.get(e.id, {}), kb.registry.get, names)
            found += [f"{e.id} ({lang}): {ln}" for ln in text.splitlines() if MARKUP.search(ln)]
            if e.see_also:
                assert f"[{e.see_also[0]}]" in text  # the id beside the title
    assert not found, "\n".join(found[:20])


def test_show_names_the_source_document_by_its_title(capsys) -> None:
    from kb.cli.main import main

    assert main(["show", "malifaux.engaged"]) == 0
    es = capsys.readouterr().out.strip().splitlines()[-1]
    assert main(["show", "--lang", "en", "malifaux.engaged"]) == 0
    en = capsys.readouterr().out.strip().splitlines()[-1]
    kb = KnowledgeBase.load()
    doc = kb.get("malifaux.engaged").data["source"]["doc"]
    title = next(s["title"] for s in kb.games["malifaux"].data["sources"] if s["doc"] == doc)
    assert es.startswith(f"Fuente: “{title['es']}”") and doc not in es
    assert en.startswith(f"Source: “{title['en']}”") and doc not in en


def test_a_ruling_prints_its_question_answer_and_authority_once_in_show_and_on_its_page() -> None:
    from kb.site.render import render_entry

    kb = KnowledgeBase.load()
    titles = lambda i: kb.get(i).title if kb.get(i) else None  # noqa: E731
    rulings = [e for e in kb.entries.values() if e.kind == "ruling"]
    assert rulings
    for e in rulings:
        for lang, labels in (("es", ("Pregunta:", "Respuesta:")), ("en", ("Question:", "Answer:"))):
            shown = render_text(e, lang, titles).splitlines()
            page = render_entry(e, lang, titles).splitlines()
            for word in labels:
                assert sum(ln.strip().startswith(word) for ln in shown) == 1, (e.id, lang, word)
                assert sum(f"{word}" in ln for ln in page if ln.startswith(("**", "|"))) == 1, (e.id, lang, word)
