"""The data the site ships for its page helpers (``assets/kb-table.js``): previews, tooltips, words.

One script per language, ``kb-table-<lang>.js`` at the language's root (a script, not JSON, so that
pages opened from ``file://`` can load it), setting ``window.KB_TABLE`` to::

    {"lang": "es",
     "labels": {"copy_link": ..., ...},                 # the helpers' interface words
     "entries": {"<page>.html[#anchor]": [title, game name, kind, summary], ...},
     "terms": {"<game>": [[form, "<page>.html"], ...]}}  # glossary forms, longest first

The browser shows ``entries`` as a preview card when a link to an entry is hovered or focused, and
marks the first mention of each ``terms`` form per section as a focusable tooltip. Everything is
plain text: the script builds its markup with ``textContent``, so nothing from the content becomes
markup. Pure apart from reading the knowledge base.
"""

from __future__ import annotations

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

__all__ = ["TABLE_LABELS", "data_name", "table_data", "script_tag"]

TABLE_LABELS = ("cite_as", "copy_link", "copied", "copy_failed", "paragraph", "terms_here", "filter_terms", "terms_shown", "no_term")
"""The interface words the page helpers use (``msgctxt "site"`` in the gettext catalogs)."""


def data_name(lang: str) -> str:
    """The data script's path relative to the language's root."""
    return f"kb-table-{lang}.js"


def table_data(kb: "Linked", lang: str) -> str:
    """The script with ``lang``'s previews, tooltip forms and words."""
    def titles(entry_id: str) -> Text | None:
        found = kb.get(entry_id)
        return found.title if found else None

    games = {g: meta.name.best(lang) for g, meta in kb.games.items()}
    entries: dict[str, list[str]] = {}
    terms: dict[str, list[list[str]]] = {}
    for entry in kb.entries.values():
        url = entry_url(entry)
        entries[url] = [entry.title.best(lang), games.get(entry.game, ""), label(entry.kind, lang),
                        definition(entry, lang, titles)]
        if entry.term is not None and entry.kind == "term":
            forms = tooltip_forms(entry.term, [lang])
            terms.setdefault(entry.game, []).extend([f, url] for f in forms)
    for pairs in terms.values():
        pairs.sort(key=lambda fu: (-len(fu[0]), fu[0]))
    data: dict[str, Any] = {"lang": lang, "labels": {k: pgettext(lang, "site", k) for k in TABLE_LABELS},
            "entries": dict(sorted(entries.items())), "terms": dict(sorted(terms.items()))}
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    # the same strings, with no "<", ">" or "&" left that a careless reader could take for markup
    text = text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
    return "window.KB_TABLE = " + text + ";\n"


def script_tag(lang: str, prefix: str, page_dest: str) -> str:
    """The ``<script defer>`` that loads the data on a page written at ``page_dest`` (under the site_dir)."""
    src = posixpath.relpath(prefix + data_name(lang), posixpath.dirname(page_dest) or ".")
    return f'<script defer src="{src}"></script>'
