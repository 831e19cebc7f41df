"""What makes a static page findable and explained: search tags, accent-less words, glossary tooltips.

Material's client search (lunr) neither folds accents nor stems Spanish, and boosts page ``tags``
a million times over body text. So each page gets, as tags, its names in both languages and
without accents; words of its text that carry accents are added once more, folded, in a hidden
block so "energia" finds "energía" at body-text rank. Tooltips are Markdown abbreviation
definitions (``*[form]: definition``), matched by the ``abbr`` extension exactly and
case-sensitively, so every form of a term is listed, with a capitalised variant.

Pure functions over the knowledge base's data; nothing here knows MkDocs.
"""

from __future__ import annotations

import re
from typing import Callable, Iterable, Mapping

from kb.core.model import Entry, Term, Text
from kb.site.render import plain
from kb.core.terms import TermIndex, fold

__all__ = ["search_tags", "folded_words", "entry_names", "tooltip_forms", "abbreviations", "front_matter"]

_UNSAFE = re.compile(r"[<>&\"\[\]\n]")
_WORD = re.compile(r"\w+", re.UNICODE)
_MAX_DEFINITION = 300


def _unique(items: Iterable[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for item in items:
        item = " ".join(item.split())
        key = item.casefold()
        if item and key not in seen and not _UNSAFE.search(item):
            seen.add(key)
            out.append(item)
    return out


def search_tags(names: Iterable[str], extra: Iterable[str] = ()) -> list[str]:
    """Tags for a page: each name, and its accent-less form when that differs; then ``extra`` as is.

    ``names`` are the page's titles and term forms in both languages. Names holding characters
    that could become markup (``<``, ``&``, brackets...) are left out.
    """
    out: list[str] = []
    for name in names:
        out.append(name)
        folded = fold(name)
        if folded != name.lower():
            out.append(folded)
    return _unique([*out, *extra])


def folded_words(text: str) -> list[str]:
    """Words of ``text`` written with accents or ``ñ``, folded (``energía`` -> ``energia``), once each."""
    return _unique(fold(w) for w in _WORD.findall(text) if not w.isascii())


def entry_names(entry: Entry) -> list[str]:
    """Every name of an entry in both languages: titles, and for terms their forms and abbreviations."""
    names = [t for t in (entry.title.es, entry.title.en) if t]
    if entry.term:
        for block in (entry.term.forms, entry.term.abbreviations):
            for forms in block.values():
                names += list(forms)
    return names


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


def front_matter(title: str, tags: Iterable[str], hide: Iterable[str] = ("tags",)) -> str:
    """YAML front matter (JSON-quoted values) with an HTML-escaped ``title`` and the search ``tags``."""
    import html
    import json

    lines = ["---", f"title: {json.dumps(html.escape(title, quote=False), ensure_ascii=False)}"]
    tags = list(tags)
    if tags:
        lines.append("tags:")
        lines += [f"  - {json.dumps(t, ensure_ascii=False)}" for t in tags]
    hidden = list(hide)
    if hidden:
        lines.append(f"hide: {json.dumps(hidden)}")
    return "\n".join(lines + ["---", ""])
