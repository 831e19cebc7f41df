"""What explains a static page: the glossary's tooltip forms, an entry's short definition, the front matter.

Pure functions over the knowledge base's data; nothing here knows MkDocs. The tooltips themselves are
added in the browser (``assets/kb-table.js``) from the data :mod:`kb.site.preview` ships with the site,
on the first mention of a term in each section, never inside a title, a heading or a link.
"""

from __future__ import annotations

import html
import json
import re
from typing import Callable, Iterable

from kb.core.model import Entry, Term, Text
from kb.site.render import plain_text

__all__ = ["tooltip_forms", "definition", "front_matter", "front_matter_title"]

_MAX_DEFINITION = 300


def tooltip_forms(term: Term, langs: Iterable[str]) -> list[str]:
    """The exact strings that mark ``term`` in a page: its forms (and capitalised), its abbreviations."""
    out: list[str] = []
    for lang in langs:
        for form in term.forms.get(lang, ()):
            out += [form, form[:1].upper() + form[1:]]
        out += list(term.abbreviations.get(lang, ()))
    return [f for f in dict.fromkeys(out) if f.strip() and not re.search(r"[\[\]\n]", f)]


def definition(entry: Entry, lang: str, titles: Callable[[str], Text | None]) -> str:
    """The entry's summary (else its text) as plain text, cut at a word near 300 characters."""
    summary = entry.text("summary") or entry.text("text")
    body = plain_text(summary.best(lang), lang, titles) if summary else ""
    if len(body) > _MAX_DEFINITION:
        body = body[:_MAX_DEFINITION].rsplit(" ", 1)[0] + "…"
    return body


def front_matter(title: str, description: str | None = None) -> str:
    """YAML front matter (JSON-quoted values): the HTML-escaped ``title``, and ``description`` if any.

    The theme prints both without escaping them (the description inside ``<meta content="…">``).
    """
    lines = ["---", f"title: {json.dumps(html.escape(title, quote=False), ensure_ascii=False)}"]
    if description:  # each page its own, in its language
        short = " ".join(description.split())
        short = short if len(short) <= 200 else short[:199].rsplit(" ", 1)[0] + "…"
        lines.append(f"description: {json.dumps(html.escape(short), ensure_ascii=False)}")
    return "\n".join([*lines, "---", ""])


def front_matter_title(markdown: str) -> str | None:
    """The title :func:`front_matter` wrote at the top of ``markdown`` (its JSON string is the same string read as
    YAML, as MkDocs reads it), else ``None``."""
    lines = markdown.split("\n", 2)
    if len(lines) < 2 or lines[0] != "---" or not lines[1].startswith("title: "):
        return None
    title = json.loads(lines[1][len("title: "):])
    return title if isinstance(title, str) else None
