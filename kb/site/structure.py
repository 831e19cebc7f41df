"""The static site as data: which pages exist, their Markdown, titles, tooltips and navigation.

Pure: given a loaded :class:`~kb.api.KnowledgeBase`, the results of its worked examples and a
language, :func:`build_site` returns every page (path relative to the language's root, Markdown
with front matter) and the navigation tree. The MkDocs plugin only hands these to MkDocs; tests
read them directly. Paths are the same in both languages, so a page's translation is the same
path under the other language's prefix.

Page paths::

    index.md                    home
    concepts.md                 the cross-game concept map (one anchor per concept)
    <game>/index.md             the game: summary, turn sequence, sections per kind
    <game>/glossary.md          the game's glossary
    <game>/<slug>.md            one entry (id <game>.<slug>); never changes while the id does not
"""

from __future__ import annotations

import html
import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from kb.examples.runner import ExampleResult
from kb.i18n.status import field_status
from kb.core.model import SOURCE_LANG, Entry, Text, page_stem
from kb.site.place import Around
from kb.core.locale import pgettext
from kb.site.render import anchor, entry_anchor, escape
from kb.view.worked import Names, name_finder
from kb.site.findable import front_matter

if TYPE_CHECKING:
    from kb.link.view import Linked
    from kb.site.render import LinkTo

__all__ = ["LANGUAGES", "t", "word", "SitePage", "NavNode", "Site", "SiteContext", "entry_path", "entry_url", "relative",
           "game_title", "nav_config", "results_by_entry"]

LANGUAGES: dict[str, str] = {"es": "Español", "en": "English"}
"""The site's languages (Spanish first: the source) and their names in the language switcher."""


@dataclass(frozen=True)
class SitePage:
    """One generated page."""

    path: str
    """Path relative to the language's root, e.g. ``malifaux/engaged.md``."""
    title: str
    """Plain-text title (not escaped)."""
    markdown: str
    """The page source: front matter, Markdown, abbreviation definitions."""


@dataclass(frozen=True)
class NavNode:
    """A navigation item: a page (``path``) or a section (``children``, maybe with an index ``path``)."""

    title: str
    """Plain-text title (not escaped)."""
    path: str | None = None
    """The page, or the section's index page."""
    children: tuple["NavNode", ...] = ()
    """Items of a section."""


@dataclass(frozen=True)
class Site:
    """Every page of one language, and its navigation."""

    lang: str
    """``es`` or ``en``."""
    pages: tuple[SitePage, ...]
    """The pages, home first."""
    nav: tuple[NavNode, ...]
    """The navigation tree."""

    def page(self, path: str) -> SitePage | None:
        """The page at ``path``, if any."""
        return next((p for p in self.pages if p.path == path), None)


def entry_path(entry: Entry) -> str:
    """Where an entry is shown: its own page, or (concepts) the concept map."""
    return page_stem(entry.kind, entry.game, entry.id) + ".md"


def entry_url(entry: Entry) -> str:
    """An entry's built page relative to the language's root (``.html``), with the concept's anchor on the
    concept map: what the search box and the previews link to."""
    url = entry_path(entry).removesuffix(".md") + ".html"
    return url + (f"#{entry_anchor(entry.id)}" if entry.kind == "concept" else "")


def relative(from_page: str, to_page: str) -> str:
    """A Markdown link from one page path to another (MkDocs resolves and checks ``.md`` links)."""
    if from_page == to_page:
        return posixpath.basename(to_page)
    return posixpath.relpath(to_page, posixpath.dirname(from_page) or ".")


def results_by_entry(results: Iterable[ExampleResult]) -> dict[str, dict[str, ExampleResult]]:
    """Example results grouped as entry id -> example id -> result."""
    out: dict[str, dict[str, ExampleResult]] = {}
    for r in results:
        out.setdefault(r.entry.id, {})[r.example.id] = r
    return out


@dataclass
class SiteContext:
    """What page builders share: the knowledge base, the example results and the language."""

    kb: "Linked"
    """The loaded knowledge base."""
    results: Mapping[str, Mapping[str, ExampleResult]]
    """Example results by entry id and example id."""
    lang: str
    """The language being built."""
    fallbacks: dict[str, list[str]] = field(default_factory=dict)
    """Page path -> names of the texts shown in Spanish for want of English (filled while building)."""
    _names: dict[str, Names] = field(default_factory=dict)
    orders: dict[tuple[str, str], Around] = field(default_factory=dict)
    """(game, kind or ``""`` for the turn sequence) -> its entries' neighbours (:func:`kb.site.place.around`),
    worked out once per build (filled by :mod:`kb.site.pages`)."""
    repo_url: str | None = None
    """``mkdocs.yml``'s ``repo_url``, as written (the translators' page links its guide there when it is http(s))."""

    def names(self, game: str) -> Names:
        """Names of the ids a game's entries mention (its ``names:``, entries, steps), built once per game."""
        if game not in self._names:
            meta = self.kb.games.get(game)
            self._names[game] = name_finder(game, meta.name if meta else None, meta.data.get("names") if meta else None,
                                            self.kb.entries)
        return self._names[game]

    def titles(self, entry_id: str) -> Text | None:
        """The title of an entry (for links)."""
        entry = self.kb.get(entry_id)
        return entry.title if entry else None

    def link_from(self, page: str) -> LinkTo:
        """A ``LinkTo`` for :func:`kb.render.render_entry` on ``page``: relative ``.md`` links with anchors."""

        def link_to(target: str, frag: str | None) -> str | None:
            entry = self.kb.get(target)
            if entry is None:
                return None
            dest = entry_path(entry)
            if frag:
                frag = anchor("example" if frag in {x.id for x in entry.examples} else "step", frag)
            elif entry.kind == "concept":
                frag = entry_anchor(entry.id)
            return relative(page, dest) + (f"#{frag}" if frag else "")

        return link_to

    def text(self, value: Text | None, page: str, name: str) -> str:
        """``value`` in the page's language; a Spanish fallback is recorded for the page's notice."""
        if value is None:
            return ""
        if self.lang != SOURCE_LANG and not value.get(self.lang):
            self.fallbacks.setdefault(page, []).append(name)
        return value.best(self.lang)

    def untranslated(self, entry: Entry) -> tuple[list[str], list[str]]:
        """Fields of ``entry`` shown in Spanish (missing English) and fields whose English is stale."""
        if self.lang == SOURCE_LANG:
            return [], []
        states = field_status(entry)
        return [s.field for s in states if s.status == "missing"], [s.field for s in states if s.status == "stale"]


def word(ctx: SiteContext, key: str) -> str:
    """A site interface string in the context's language, from the gettext catalog (``msgctxt "site"``), as the
    catalog has it: for a title, the menu, a description (the theme escapes them)."""
    return pgettext(ctx.lang, "site", key)


def t(ctx: SiteContext, key: str) -> str:
    """:func:`word` as Markdown: escaped (:func:`~kb.site.render.escape`), so a translator's ``*``, backtick, link or
    ``{: …}`` shows as typed, never as markup."""
    return escape(word(ctx, key))


def game_title(ctx: SiteContext, word: str, game_name: str) -> str:
    """The title of a game's own page (its glossary, its quick reference): «word — game», or the word alone when the
    site has one game (the site's name, which follows every title, says it already)."""
    return word if len(ctx.kb.games) == 1 else f"{word} — {game_name}"


def finish(ctx: SiteContext, path: str, title: str, body: str, game: str | None = None,
           description: str | None = None) -> SitePage:
    """Assemble a page: front matter with the title (and the entry's summary as its description), the body.

    Glossary tooltips are added in the browser from the site's data file (:mod:`kb.site.preview`),
    on the first mention of a term in each section only.
    """
    return SitePage(path, title, front_matter(title, description) + body.rstrip() + "\n")


def nav_config(nodes: Iterable[NavNode], prefix: str = "") -> list[Any]:
    """The navigation in ``mkdocs.yml`` form, paths under ``prefix``, titles HTML-escaped.

    Titles are escaped because the theme prints navigation titles without escaping them.
    A section with an index page lists that page first, bare, for ``navigation.indexes``.
    """
    out: list[Any] = []
    for node in nodes:
        title = html.escape(node.title, quote=False)
        if node.children:
            items = ([prefix + node.path] if node.path else []) + nav_config(node.children, prefix)
            out.append({title: items})
        elif node.path:
            out.append({title: prefix + node.path})
    return out
