"""The site's search box: the engine's exported search data with page URLs and the dialog's words.

The data (:func:`kb.search.export.export`) is written once per language as a script,
``<lang>/kb-search-<lang>.js`` (a script, not JSON, so that pages opened from ``file://`` can load
it); every page names it, with a version, in a ``<meta name="kb-search">`` tag that
``kb-search.js`` reads. Pure apart from asking the knowledge base for its index.
"""

from __future__ import annotations

import hashlib
import html
import json
import posixpath
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from kb.core.cache import shared_cache_dir
from kb.core.model import KINDS
from kb.search.export import export, to_script
from kb.site.render import label
from kb.site.structure import entry_url

if TYPE_CHECKING:
    from kb.link.view import Linked

__all__ = ["SEARCH_LABELS", "SearchData", "search_data", "data_name", "meta_tag"]

SEARCH_LABELS: dict[str, dict[str, str]] = {
    "es": {"search": "Buscar", "placeholder": "Buscar reglas, términos o preguntas", "close": "Cerrar",
           "did_you_mean": "¿Quisiste decir", "no_results": "Nada encontrado.", "loading": "Cargando la búsqueda…",
           "failed": "La búsqueda no está disponible en esta página.", "results": "resultados",
           "games": "Juego", "kinds": "Tipo", "all_games": "Todos los juegos", "all_kinds": "Todos los tipos",
           "everywhere": "Todos los juegos por igual", "common": "Común a varios juegos", "hint": "Intro abre el primero; ↑ ↓ para moverse; Esc cierra."},
    "en": {"search": "Search", "placeholder": "Search rules, terms or questions", "close": "Close",
           "did_you_mean": "Did you mean", "no_results": "Nothing found.", "loading": "Loading search…",
           "failed": "Search is not available on this page.", "results": "results",
           "games": "Game", "kinds": "Kind", "all_games": "All games", "all_kinds": "All kinds",
           "everywhere": "Every game alike", "common": "Shared by several games", "hint": "Enter opens the first; ↑ ↓ to move; Esc closes."},
}
"""The dialog's own words, per language."""


@dataclass(frozen=True)
class SearchData:
    """One language's search data, ready to write."""

    lang: str
    """``es`` or ``en``."""
    script: str
    """The script that hands the data to ``kb-search.js``."""
    version: str
    """A hash of the script: pages ask for this version, and a visit's cached copy is reused only when it matches."""


def data_name(lang: str) -> str:
    """The data script's path relative to the language's root."""
    return f"kb-search-{lang}.js"


def _url(kb: "Linked", entry_id: str) -> str | None:
    entry = kb.get(entry_id)
    return entry_url(entry) if entry is not None else None


def kind_words(lang: str) -> dict[str, str]:
    """Each entry kind's word in ``lang``, as the search box's chips show it."""
    return {k: label(k, lang) for k in KINDS}


def search_data(kb: "Linked", reader: Any, lang: str) -> SearchData:
    """Export the engine's search for ``lang``, with URLs relative to the language's root and the dialog's words."""
    games = {"common": SEARCH_LABELS[lang]["common"], **{g: meta.name.best(lang) for g, meta in kb.games.items()}}
    data = export(reader, lang, lambda i: _url(kb, i), games, cache=shared_cache_dir("search-words", kb.cache_base))
    data["labels"] = SEARCH_LABELS[lang]
    data["kinds"] = kind_words(lang)
    script = to_script(data)
    return SearchData(lang, script, hashlib.sha256(script.encode()).hexdigest()[:12])


def meta_tag(data: SearchData, page_path: str) -> str:
    """The ``<meta>`` that tells a page (at ``page_path`` relative to its language's root) where its search data is."""
    depth = posixpath.dirname(page_path).count("/") + 1 if posixpath.dirname(page_path) else 0
    root = "../" * depth
    content = json.dumps({"lang": data.lang, "root": root, "data": root + data_name(data.lang),
                          "version": data.version, "label": SEARCH_LABELS[data.lang]["search"],
                          "labels": SEARCH_LABELS[data.lang]},
                         ensure_ascii=False, separators=(",", ":"))
    return f'<meta name="kb-search" content="{html.escape(content, quote=True)}">'
