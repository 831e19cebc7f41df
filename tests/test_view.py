"""One view, every output: the site's Markdown, ``kb show`` and the search documents read one structured view."""

from __future__ import annotations

from collections import Counter

import pytest

from kb.api import KnowledgeBase
from kb.core.model import iter_texts
from kb.site.render import markdown
from kb.site.text import text
from kb.view.entry import content_texts, entry_view

from conftest import CONTENT


@pytest.fixture(scope="module")
def kb() -> KnowledgeBase:
    return KnowledgeBase.load(CONTENT)


def _titles(kb: KnowledgeBase):
    def titles(entry_id: str):
        found = kb.get(entry_id)
        return found.title if found else None
    return titles


def test_the_search_body_holds_every_text_of_the_entry_once_and_nothing_else(kb) -> None:
    """The view shows each translatable text of an entry's data (title and summary apart) exactly once."""
    titles = _titles(kb)
    for entry in kb.entries.values():
        for lang in ("es", "en"):
            data = Counter(t.get(lang) or t["es"] for p, t in iter_texts(entry.data) if p[:1] not in (("title",), ("summary",)))
            assert Counter(content_texts(entry_view(entry, lang, titles))) == data, (entry.id, lang)


def test_every_section_of_the_view_reaches_both_outputs(kb) -> None:
    """Each section's heading (or, for a ruling and the text, its first words) shows on the page and in the terminal."""
    titles = _titles(kb)
    seen: set[str] = set()
    for entry in kb.entries.values():
        view = entry_view(entry, "en", titles, kb.backlinks(entry.id))
        page, term = markdown(view, titles), text(view, titles)
        for section in view.sections:
            seen.add(section.key)
            if section.key in ("ruling", "text"):
                continue
            assert section.heading in page and section.heading in term, (entry.id, section.key)
    assert seen >= {"ruling", "text", "facts", "modifiers", "steps", "notes", "examples", "player_questions",
                    "see_also", "referenced_by"}


def test_a_ruling_shows_its_question_once(kb) -> None:
    ruling = next(e for e in kb.entries.values() if e.kind == "ruling")
    page = markdown(entry_view(ruling, "en", _titles(kb)), _titles(kb))
    assert page.count("Question") == 1


def test_a_name_shows_as_written_while_prose_keeps_its_emphasis():
    """A title's ``*``, ``_``, backtick and backslash are letters on the page ("7*7" is not "77"); the
    writers' own ``**bold**`` in prose stays bold."""
    import html as html_lib
    import re

    import markdown as md

    from kb.site.render import escape, inline

    def shown(markdown_text: str) -> str:
        return html_lib.unescape(re.sub(r"<[^>]+>", "", md.markdown(markdown_text)))

    title = r"7*7}} ${7*7} *a* _b_ `c` d\e <i>"
    assert shown(f"# {escape(title)}") == title
    assert shown(f"[{escape(title)}](x.md)") == title
    prose = md.markdown(inline("**Duración.** Un turno.", "es", lambda _id: None))
    assert "<strong>Duración.</strong>" in prose


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_line_under_a_rulings_title_says_each_thing_once(kb, lang: str) -> None:
    """A ruling's line under its title read «Aclaración · BattleTech: Solaris VII · aclaración» (its kind, then its
    rule type, a clarification: phone audit 3, D14). A ruling says it is one once; a rule of another type still says
    so; on the page and in ``kb show`` alike."""
    titles = _titles(kb)
    rulings = [e for e in kb.entries.values() if e.kind == "ruling" and e.rule_type == "clarification"]
    assert rulings
    for entry in rulings:
        view = entry_view(entry, lang, titles)
        assert len(view.meta) == 2, view.meta
        assert len({m.casefold() for m in view.meta}) == len(view.meta), view.meta
        assert " · ".join(view.meta) in markdown(view, titles) and " · ".join(view.meta) in text(view, titles)
    rule = next(e for e in kb.entries.values() if e.kind == "rule" and e.rule_type == "clarification")
    assert len(entry_view(rule, lang, titles).meta) == 3
