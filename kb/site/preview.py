"""The data the site ships for its page helpers (``assets/kb-table.js``): previews, tooltips, words.

Scripts (not JSON, so that pages opened from ``file://`` can load them), split so that a page loads only
what it uses, after the page (issue 29): ``kb-table-<lang>.js`` at the language's root holds the helpers' words and sets::

    window.KB_TABLE = {"lang": "es", "labels": {"copy_link": ..., ...}, "entries": {}, "terms": {}}

and each game's ``<game>/kb-table-<lang>.js`` adds that game's part::

    window.KB_TABLE_PARTS = [..., {"entries": {"<page>.html[#anchor]": [title, game name, kind, summary], ...},
                                   "terms": {"<game>": [[form, "<page>.html"], ...]}}]  # glossary forms, longest first

A game's pages load its own part; the pages outside a game (home, concept map) load every game's. The browser
shows ``entries`` as a preview card when a link to an entry is hovered or focused, and marks the first mention
of each ``terms`` form per section as a focusable tooltip. Everything is plain text: the script builds its
markup with ``textContent``, so nothing from the content becomes markup. Pure apart from reading the
knowledge base.
"""

from __future__ import annotations

import html
import json
import posixpath
from typing import TYPE_CHECKING, Any

from kb.core.model import Text

from kb.site.findable import definition, tooltip_forms
from kb.core.locale import pgettext
from kb.site.render import label
from kb.site.structure import entry_url

if TYPE_CHECKING:
    from kb.link.view import Linked

__all__ = ["TABLE_LABELS", "data_name", "data_tag", "table_data"]

TABLE_LABELS = ("cite_as", "copy_link", "copied", "copy_failed", "paragraph", "terms_here", "filter_terms", "terms_shown", "no_term",
                "menu_back", "menu_open")
"""The interface words the page helpers use (``msgctxt "site"`` in the gettext catalogs)."""


def data_name(lang: str, game: str | None = None) -> str:
    """A data script's path relative to the language's root: the words, or ``game``'s previews and tooltips."""
    return f"{game}/kb-table-{lang}.js" if game else f"kb-table-{lang}.js"


def table_data(kb: "Linked", lang: str) -> dict[str, str]:
    """``lang``'s data scripts by path (``data_name``): the words, then each game's previews and tooltip forms."""
    def titles(entry_id: str) -> Text | None:
        found = kb.get(entry_id)
        return found.title if found else None

    games = {g: meta.name.best(lang) for g, meta in kb.games.items()}
    entries: dict[str, dict[str, list[str]]] = {}
    terms: dict[str, list[list[str]]] = {}
    for entry in kb.entries.values():
        url = entry_url(entry)
        entries.setdefault(entry.game, {})[url] = [entry.title.best(lang), games.get(entry.game, ""),
                                                   label(entry.kind, lang), definition(entry, lang, titles)]
        if entry.term is not None and entry.kind == "term":
            forms = tooltip_forms(entry.term, [lang])
            terms.setdefault(entry.game, []).extend([f, url] for f in forms)
    for pairs in terms.values():
        pairs.sort(key=lambda fu: (-len(fu[0]), fu[0]))
    words = {"lang": lang, "labels": {k: pgettext(lang, "site", k) for k in TABLE_LABELS}, "entries": {}, "terms": {}}
    out = {data_name(lang): "window.KB_TABLE = " + _json(words) + ";\n"}
    for game in sorted(entries):
        part = {"entries": dict(sorted(entries[game].items())), "terms": {game: terms[game]} if game in terms else {}}
        out[data_name(lang, game)] = "(window.KB_TABLE_PARTS = window.KB_TABLE_PARTS || []).push(" + _json(part) + ");\n"
    return out


def _json(data: Any) -> str:
    """``data`` as JSON with no "<", ">" or "&" left that a careless reader could take for markup."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def data_tag(lang: str, prefix: str, page_dest: str, games: list[str]) -> str:
    """The ``<meta name="kb-table">`` naming the data scripts of a page written at ``page_dest`` (under the site_dir),
    relative to it and separated by spaces: the words, then the parts of ``games`` (the page's own game, or every
    game on a page outside one). ``kb-table.js`` loads them once the page has loaded and the browser is idle, so
    none of them is on the first paint's path (they were ``<script defer>``s, 140 KB on the home page, issue 29)."""
    here = posixpath.dirname(page_dest) or "."
    urls = " ".join(posixpath.relpath(prefix + name, here) for name in [data_name(lang)] + [data_name(lang, g) for g in games])
    return f'<meta name="kb-table" content="{html.escape(urls, quote=True)}">'
