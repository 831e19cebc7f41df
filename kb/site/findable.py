"""What explains a static page: glossary tooltips, and the page's front matter.

Tooltips are Markdown abbreviation definitions (``*[form]: definition``), matched by the ``abbr``
extension exactly and case-sensitively, so every form of a term is listed, with a capitalised
variant. (Pages carry no search tags: the site's search box is the engine's own, see
:mod:`kb.site.search_box`.)

Pure functions over the knowledge base's data; nothing here knows MkDocs.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Mapping

from kb.core.model import Entry, Term, Text
from kb.site.render import plain
from kb.core.terms import TermIndex

__all__ = ["tooltip_forms", "abbreviations", "front_matter"]

_MAX_DEFINITION = 300


def tooltip_forms(term: Term, langs: Iterable[str]) -> list[str]:
    """The exact strings the ``abbr`` extension must match for ``term``: forms (and capitalised), abbreviations."""
    out: list[str] = []
    for lang in langs:
        for form in term.forms.get(lang, ()):
            out += [form, form[:1].upper() + form[1:]]
        out += list(term.abbreviations.get(lang, ()))
    return [f for f in dict.fromkeys(out) if f.strip() and not re.search(r"[\[\]\n]", f)]


def _definition(entry: Entry, lang: str, titles: Callable[[str], Text | None], game_name: str | None) -> str:
    summary = entry.text("summary") or entry.text("text")
    body = plain(summary.best(lang), lang, titles) if summary else ""
    if len(body) > _MAX_DEFINITION:
        body = body[:_MAX_DEFINITION].rsplit(" ", 1)[0] + "…"
    head = entry.title.best(lang) + (f" ({game_name})" if game_name else "")
    return f"{head}: {body}" if body else head


def abbreviations(
    text: str,
    lang: str,
    terms: TermIndex,
    entries: Mapping[str, Entry],
    titles: Callable[[str], Text | None],
    game: str | None = None,
    game_names: Mapping[str, str] | None = None,
    fallback: bool = False,
) -> list[str]:
    """Markdown abbreviation definitions for every term written in ``text`` (a page's Markdown).

    Terms are detected in ``lang`` (and in Spanish too when the page shows untranslated Spanish,
    ``fallback``), restricted to ``game`` when given. A form shared by terms of several games
    (on cross-game pages) gets one definition naming each game.
    """
    langs = [lang] + (["es"] if fallback and lang != "es" else [])
    found: list[str] = []
    for lg in langs:
        found += [m.term for m in terms.detect(text, lg, game)]
    defs: dict[str, list[str]] = {}
    for tid in dict.fromkeys(found):
        entry = entries.get(tid)
        if entry is None or entry.term is None:
            continue
        label = (game_names or {}).get(entry.game) if game is None else None
        meaning = _definition(entry, lang, titles, label)
        for form in tooltip_forms(entry.term, langs):
            if meaning not in defs.setdefault(form, []):
                defs[form].append(meaning)
    return [f"*[{form}]: {' · '.join(d.replace(chr(10), ' ') for d in meanings)}"
            for form, meanings in sorted(defs.items())]


def front_matter(title: str, description: str | None = None) -> str:
    """YAML front matter (JSON-quoted values) with the HTML-escaped ``title`` and, when given, the page's
    ``description`` (the theme's ``<meta name="description">``: each page its own, in its language)."""
    import html
    import json

    lines = ["---", f"title: {json.dumps(html.escape(title, quote=False), ensure_ascii=False)}"]
    if description:
        short = " ".join(description.split())
        short = short if len(short) <= 200 else short[:199].rsplit(" ", 1)[0] + "…"
        lines.append(f"description: {json.dumps(html.escape(short), ensure_ascii=False)}")
    return "\n".join([*lines, "---", ""])
