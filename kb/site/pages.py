"""The Markdown of each kind of page: home, game, entry, glossary, concept map; and the navigation.

Every string from the content goes through :func:`kb.render.escape` (or a renderer that does);
interface strings come from the gettext catalogs (:mod:`kb.core.locale`).
"""

from __future__ import annotations

import hashlib
import html
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable, Mapping

from kb.core.locale import decimal_mark, fill, ngettext, number
from kb.core.model import KINDS, Entry, Text
from kb.examples.runner import ExampleResult
from kb.site.calc import calc_markdown, needs_runtime
from kb.site.place import Around, around, neighbours, place_lines, sequence_order, source_titles, turn_sequence
from kb.site.render import cell, entry_anchor, escape, forms_markdown, inline, label, markdown_value, plain_text, render_entry, steps
from kb.site.structure import (NavNode, Site, SiteContext, SitePage, entry_path, finish, game_title, relative, t, word,
                               results_by_entry)
from kb.view.entry import sequence_steps
from kb.site.quickref import quickref_page, quickref_path
from kb.site.translators import PATH as TRANSLATORS_PATH, Words as TranslatorsWords, translators_page

if TYPE_CHECKING:
    from kb.link.view import Linked
    from kb.site.render import LinkTo

__all__ = ["KIND_ORDER", "Basis", "all_pages", "basis", "build_site", "navigation", "main_sequence", "unchanged_pages"]

KIND_ORDER = ("sequence", "action", "ability", "rule", "terrain", "ruling", "term")
"""The order of a game's sections."""

def _kind_label(ctx: SiteContext, kind: str) -> str:
    return word(ctx, "term_plural" if kind == "term" else kind)


def _fmt(ctx: SiteContext, page: str) -> Callable[[str], str]:
    return lambda s: inline(s, ctx.lang, ctx.titles, ctx.link_from(page))


def _notice(ctx: SiteContext, page: str, body: str) -> str:
    """A warning admonition when the English page shows Spanish (only after the body is built)."""
    shown = ctx.fallbacks.get(page)
    if not shown or ctx.lang == "es":
        return body
    names = ", ".join(escape(n) for n in dict.fromkeys(shown) if n)
    head = f'!!! warning "{t(ctx, "fallback_title")}"\n\n    {t(ctx, "fallback")} {names}\n\n'
    return head + body


def entry_page(ctx: SiteContext, entry: Entry) -> SitePage:
    """One entry: everything :func:`render_entry` shows, with a notice when the English is missing or stale."""
    path = entry_path(entry)
    kb = ctx.kb
    game = kb.games.get(entry.game)
    body = render_entry(entry, ctx.lang, ctx.titles, kb.backlinks(entry.id), ctx.results.get(entry.id, {}),
                        ctx.link_from(path), resolvers=kb.registry.get, names=ctx.names(entry.game),
                        documents=source_titles(game.data) if game else None,
                        show_id=game is None)  # with a game, the citation line under the title shows the id
    body += calc_markdown(entry, kb.registry.get, ctx.lang)
    body = _with_place(ctx, entry, path, body)
    missing, stale = ctx.untranslated(entry)
    notes = []
    if missing:
        ctx.fallbacks.setdefault(path, []).extend(missing)
        notes.append((t(ctx, "untranslated_title"), label("untranslated", ctx.lang), missing))
    if stale:
        notes.append((t(ctx, "stale_title"), label("stale", ctx.lang), stale))
    head = "".join(f'!!! warning "{title}"\n\n    {text} ({t(ctx, "fields")}: {escape(", ".join(fields))})\n\n'
                   for title, text, fields in notes)
    summary = entry.text("summary")
    description = plain_text(summary.best(ctx.lang), ctx.lang, ctx.titles) if summary else None
    return finish(ctx, path, entry.title.best(ctx.lang), head + body, entry.game, description)


def _with_place(ctx: SiteContext, entry: Entry, path: str, body: str) -> str:
    """``body`` with the breadcrumb and the citation/neighbours line after its title (its first line)."""
    kb = ctx.kb
    if entry.game not in kb.games:
        return body
    link = ctx.link_from(path)
    in_kind = _order(ctx, entry.game, entry.kind) if entry.kind in KINDS else {}  # an unknown kind: no neighbours
    near = [_neighbour(ctx, link, i) for i in neighbours(entry.id, _order(ctx, entry.game, ""), in_kind)]
    game_page = relative(path, f"{entry.game}/index.md")
    lines = place_lines(entry, lambda k: word(ctx, k), relative(path, "index.md"), game_page,
                        kb.games[entry.game].name.best(ctx.lang), _kind_label(ctx, entry.kind), near[0], near[1],
                        up=len(kb.games) > 1)
    title, _, rest = body.partition("\n")
    return "\n".join(lines[:3]) + title + "\n\n" + "\n".join(lines[3:]) + rest


def _order(ctx: SiteContext, game: str, kind: str) -> Around:
    """The neighbours in a game's turn sequence (``kind`` empty) or among its entries of ``kind`` as its page lists
    them, worked out once per build."""
    if (game, kind) not in ctx.orders:
        ids = (sequence_order(main_sequence(ctx, game), ctx.kb.entries) if not kind
               else [e.id for e in _sorted(ctx, ctx.kb.filter(game=game, kind=kind))])
        ctx.orders[(game, kind)] = around(ids)
    return ctx.orders[(game, kind)]


def main_sequence(ctx: SiteContext, game: str) -> Entry | None:
    """The game's turn sequence: a core sequence, preferring ids that say turn or round, then the longest."""
    return turn_sequence(ctx.kb.filter(game=game, kind="sequence"))


def game_page(ctx: SiteContext, game: str) -> SitePage:
    """A game: name, summary, its turn sequence as ordered steps, and its entries by kind."""
    meta = ctx.kb.games[game]
    path = f"{game}/index.md"
    fmt = _fmt(ctx, path)
    name = ctx.text(meta.name, path, meta.name.es)
    out = [f"# {escape(name)} {{#{entry_anchor(game)}}}", ""]
    out += [_offline_place(ctx, needs_runtime(ctx.kb, game)), ""]
    summary = meta.data.get("summary")
    if isinstance(summary, dict) and "es" in summary:
        out += [f"> {fmt(ctx.text(_text(summary), path, name))}", ""]
    out += [f'[{t(ctx, "quickref")}](quickref.md){{: .kb-quickref-link data-kb-quickref="{entry_anchor(game)}" }}', ""]
    seq = main_sequence(ctx, game)
    if seq is not None:
        link = ctx.link_from(path)
        title = ctx.text(seq.title, path, seq.title.es)
        out += [f"## {t(ctx, 'turn_sequence')} {{#turn-sequence}}", "", f"[{escape(title)}]({link(seq.id, None)})", ""]
        href = lambda sid: link(seq.id, sid)  # noqa: E731
        items = sequence_steps((seq.data.get("sequence") or {}).get("steps", []), ctx.lang, game, ctx.titles, ctx.names(game))
        out += steps(items, ctx.lang, lambda v: markdown_value(v, ctx.lang, ctx.titles, link), href=href) + [""]
    out += [f"## {t(ctx, 'sections')} {{#sections}}", ""]
    out += [f"- [{t(ctx, 'glossary')}](glossary.md)"]
    kinds = [k for k in KIND_ORDER if ctx.kb.filter(game=game, kind=k)]
    out += [f"- [{escape(_kind_label(ctx, k))}](#{k})" for k in kinds] + [""]
    for kind in kinds:
        out += [f"### {escape(_kind_label(ctx, kind))} {{#{kind}}}", ""]
        for e in _sorted(ctx, ctx.kb.filter(game=game, kind=kind)):
            out.append(_entry_item(ctx, path, e))
        out.append("")
    body = _notice(ctx, path, "\n".join(out))
    summary = meta.data.get("summary")
    description = _text(summary).best(ctx.lang) if isinstance(summary, dict) and "es" in summary else None
    return finish(ctx, path, name, body, game, description)


def _offline_place(ctx: SiteContext, full: bool = False) -> str:
    """The place of kb-offline.js's "save for offline play" box, in the page's HTML: a stand-in for its button
    (a span, which the sanitiser keeps, styled as the button; the size a placeholder, digits as wide as the real ones,
    the unit after a no-break space as there), hidden by kb.css until kb-offline.js fills it once it knows the
    buttons' first state (their sizes from the page's ``<meta name="kb-offline">``, which ``kb build`` writes them
    into: :func:`kb.site.app.offline_meta`; ``kb-offline.json`` is read only when something is stored already), so
    that nothing below the title moves then (a layout shift of 0.069 on a game's page in Lighthouse, issue 29);
    kb-offline.js takes it out where it offers nothing (file://, no worker). ``full``: the
    game has a calculator the page's Python answers, so the box offers its runtime too: a stand-in for that button."""
    size = f" (00{decimal_mark(ctx.lang)}0\u00a0MB)"
    keys = ("offline_save", "offline_full") if full else ("offline_save",)
    buttons = "".join(f'<span class="md-button kb-offline__button">{html.escape(word(ctx, k) + size)}</span>' for k in keys)
    return f'<p class="kb-offline kb-offline--place">{buttons}<span class="kb-offline__status"></span></p>'


def _neighbour(ctx: SiteContext, link: LinkTo, entry_id: str | None) -> tuple[str, str] | None:
    """(title, link) of a neighbouring entry, for the place line; None when there is none."""
    url = link(entry_id, None) if entry_id else None
    return ((ctx.titles(entry_id) or Text(entry_id)).best(ctx.lang), url) if entry_id and url else None


def _text(value: Mapping[str, str]) -> Text:
    from kb.core.model import Text

    return Text(value["es"], value.get("en"))


def _sorted(ctx: SiteContext, entries: list[Entry]) -> list[Entry]:
    from kb.core.terms import fold

    return sorted(entries, key=lambda e: (fold(e.title.best(ctx.lang)), e.id))


def _entry_item(ctx: SiteContext, page: str, e: Entry) -> str:
    title = ctx.text(e.title, page, e.title.es)
    line = f"- [{escape(title)}]({relative(page, entry_path(e))})"
    summary = e.text("summary")
    if summary:
        line += " — " + inline(ctx.text(summary, page, title), ctx.lang, ctx.titles, ctx.link_from(page))
    return line.replace("\n", " ")


def glossary_page(ctx: SiteContext, game: str) -> SitePage:
    """A game's terms: title, forms, abbreviations, definition and shared concept, alphabetically."""
    meta = ctx.kb.games[game]
    path = f"{game}/glossary.md"
    fmt = _fmt(ctx, path)
    name = meta.name.best(ctx.lang)
    title = game_title(ctx, word(ctx, "glossary"), name)
    out = [f"# {escape(title)} {{#glossary}}", ""]
    link = ctx.link_from(path)
    terms = _sorted(ctx, ctx.kb.filter(game=game, kind="term"))
    out += _letters(ctx, terms)
    for e in terms:
        term_title = ctx.text(e.title, path, e.title.es)
        out += [f"## [{escape(term_title)}]({link(e.id, None)}) {{#{entry_anchor(e.id)}}}", ""]
        summary = e.text("summary")
        if summary:
            out += [fmt(ctx.text(summary, path, term_title)), ""]
        assert e.term is not None
        rows = []
        for key, block in (("forms", e.term.forms), ("abbreviations", e.term.abbreviations)):
            shown = forms_markdown(block, ctx.lang)
            if shown:
                rows.append(f"- *{t(ctx, key)}:* {shown}")
        if e.term.concept and (concept := ctx.kb.get(e.term.concept)):
            rows.append(f"- *{t(ctx, 'concept')}:* [{escape(concept.title.best(ctx.lang))}]"
                        f"({link(e.term.concept, None)})")
        out += rows + [""]
    body = _notice(ctx, path, "\n".join(out))
    return finish(ctx, path, title, body, game)


def _letters(ctx: SiteContext, terms: list[Entry]) -> list[str]:
    """The glossary's A–Z bar: each initial its terms start with, linking to the first of them (kb-table.js
    adds the filter under it)."""
    from kb.core.terms import fold

    first: dict[str, str] = {}
    for e in terms:
        initial = fold(e.title.best(ctx.lang))[:1].upper()
        if initial.isalnum():
            first.setdefault(initial, entry_anchor(e.id))
    if not first:
        return []
    bar = " ".join(f"[{escape(letter)}](#{anchor})" for letter, anchor in first.items())
    # the filter's place, as high as the filter (kb.css): kb-table.js puts it in there once its data has loaded, and
    # nothing below moves (a layout shift of 0.036 in Lighthouse, issue 29)
    return [f"*{t(ctx, 'az')}:* {bar}", "{: .kb-az }", "", '<p class="kb-filter-place"></p>', ""]


def _has_concepts(ctx: SiteContext) -> bool:
    """Whether the content has shared concepts: a pack without them (one game) has no concept map, and nothing
    links to one (the home page, the menu)."""
    return bool(ctx.kb.filter(kind="concept"))


def concepts_page(ctx: SiteContext) -> SitePage:
    """The concept map: each shared concept with each game's term and how that game's version differs."""
    path = "concepts.md"
    fmt = _fmt(ctx, path)
    link = ctx.link_from(path)
    title = word(ctx, "concepts")
    out = [f"# {escape(title)} {{#concepts}}", "", t(ctx, "concepts_intro"), ""]
    out += _concept_index(ctx, path)
    for view in ctx.kb.concepts():
        c = view.entry
        ctitle = ctx.text(c.title, path, c.title.es)
        out += [f"## {escape(ctitle)} {{#{entry_anchor(c.id)}}}", ""]
        if c.text("summary"):
            out += [fmt(ctx.text(c.text("summary"), path, ctitle)), ""]
        rows = []
        for game, terms in view.terms.items():
            gname = ctx.kb.games[game].name.best(ctx.lang) if game in ctx.kb.games else game
            for term in terms:
                note = term.data.get("term", {}).get("concept_note")
                shown = fmt(ctx.text(_text(note), path, term.title.es)) if isinstance(note, dict) else t(ctx, "none")
                rows.append(f"| {_game_cell(ctx, game, gname)} | [{cell(escape(term.title.best(ctx.lang)))}]({link(term.id, None)}) "
                            f"| {cell(shown)} |")
        if rows:
            out += [f"| {cell(t(ctx, 'game'))} | {cell(t(ctx, 'term'))} | {cell(t(ctx, 'note'))} |", "|---|---|---|", *rows, ""]
        elif not view.related:
            out += [t(ctx, "none"), ""]
        for game, entries in view.related.items():
            gname = ctx.kb.games[game].name.best(ctx.lang) if game in ctx.kb.games else game
            listed = ", ".join(f"[{escape(e.title.best(ctx.lang))}]({link(e.id, None)})" for e in entries)
            out += [f"*{t(ctx, 'related')} ({escape(gname)}):* {listed}", ""]
    body = _notice(ctx, path, "\n".join(out))
    return finish(ctx, path, title, body, description=word(ctx, "concepts_intro"))


def _concept_index(ctx: SiteContext, path: str) -> list[str]:
    """The concept map's index, at its top: one line of links to its concepts, in the page's order (on a phone the
    page is 40 screens long and the contents are in the drawer)."""
    links = [f"[{escape(ctx.text(v.entry.title, path, v.entry.title.es))}](#{entry_anchor(v.entry.id)})"
             for v in ctx.kb.concepts()]
    return [f"**{t(ctx, 'concepts_index')}:** " + " · ".join(links), "{: .kb-index }", ""] if links else []


def _game_cell(ctx: SiteContext, game: str, name: str) -> str:
    """A game in a narrow column: its ``short_name`` (``game.yaml``), else its name up to a colon or a bracket («Aliens
    vs Predator», not «Aliens vs Predator: The Hunt Begins» over four lines on a phone); the whole name as its title and
    as the text a screen reader reads; ``kb-game``, which the glossary's tooltips leave alone (a game's name is not a
    rule's term)."""
    given = ctx.kb.games[game].data.get("short_name") if game in ctx.kb.games else None
    short = (_text(given).best(ctx.lang) if isinstance(given, Mapping) and "es" in given
             else re.split(r":|\s\(", name, maxsplit=1)[0]).strip()
    if not short or short == name.strip():
        return cell(f'<span class="kb-game">{escape(name)}</span>')
    return cell(f'<span class="kb-game" title="{html.escape(name)}"><span aria-hidden="true">{escape(short)}</span>'
                f'<span class="kb-sr">{escape(name)}</span></span>')


def home_page(ctx: SiteContext) -> SitePage:
    """The home page: the games, the concept map (when there are shared concepts), and how many worked examples
    this build verified."""
    path = "index.md"
    out = [f"# {t(ctx, 'site')} {{#home}}", "", t(ctx, "intro"), "", f"## {t(ctx, 'games')} {{#games}}", ""]
    for game, meta in sorted(ctx.kb.games.items()):
        name = ctx.text(meta.name, path, meta.name.es)
        count = len(ctx.kb.filter(game=game))
        line = f"- [{escape(name)}]({game}/index.md) · {escape(ngettext(ctx.lang, '{n} entry', '{n} entries', count))}"
        summary = meta.data.get("summary")
        if isinstance(summary, dict) and "es" in summary:
            line += " — " + escape(ctx.text(_text(summary), path, name))
        out.append(line.replace("\n", " "))
    out.append("")
    if _has_concepts(ctx):
        out += [f"- [{t(ctx, 'concepts')}](concepts.md)", ""]
    results = [r for per in ctx.results.values() for r in per.values()]
    if results:
        out += [escape(verified_line(ctx.lang, sum(r.passed for r in results), len(results))), ""]
    body = _notice(ctx, path, "\n".join(out))
    return finish(ctx, path, word(ctx, "site"), body, description=word(ctx, "intro"))


def verified_line(lang: str, ok: int, n: int) -> str:
    """The home page's line "OK of N worked examples checked", both numbers as ``lang`` writes them."""
    return fill(ngettext(lang, "{ok} of {n} worked example verified by this build.",
                         "{ok} of {n} worked examples verified by this build.", n), {"ok": number(ok, lang)})


def all_pages(ctx: SiteContext, kept: Mapping[str, SitePage] | None = None) -> list[SitePage]:
    """Every page, home first; a page of ``kept`` (by path) is taken as it is instead of being made again."""
    kept = kept or {}
    pages = [home_page(ctx)]
    for game in sorted(ctx.kb.games):
        pages += [kept.get(f"{game}/index.md") or game_page(ctx, game),
                  kept.get(f"{game}/glossary.md") or glossary_page(ctx, game),
                  kept.get(quickref_path(game)) or quickref_page(ctx, game, _notice)]
        pages += [kept.get(entry_path(e)) or entry_page(ctx, e) for e in ctx.kb.filter(game=game)]
    if _has_concepts(ctx):
        pages.append(concepts_page(ctx))
    pages.append(translators_page(ctx))
    return pages


def navigation(ctx: SiteContext) -> tuple[NavNode, ...]:
    """Home, each game (its page, its glossary, its entries grouped by kind), the concept map (when there are shared
    concepts), the translators' page.

    The theme's ``navigation.prune`` keeps this small: a page carries the entries of its own kind
    only, the other kinds as one link each (see docs/site.md, "Measured").
    """
    nodes = [NavNode(word(ctx, "home"), "index.md")]
    for game, meta in sorted(ctx.kb.games.items()):
        items = [NavNode(word(ctx, "glossary"), f"{game}/glossary.md"), NavNode(word(ctx, "quickref"), quickref_path(game))]
        for kind in KIND_ORDER:
            entries = _sorted(ctx, ctx.kb.filter(game=game, kind=kind))
            if entries:
                items.append(NavNode(_kind_label(ctx, kind), None,
                                     _menu_groups([NavNode(e.title.best(ctx.lang), entry_path(e)) for e in entries])))
        nodes.append(NavNode(meta.name.best(ctx.lang), f"{game}/index.md", tuple(items)))
    if _has_concepts(ctx):
        nodes.append(NavNode(word(ctx, "concepts"), "concepts.md"))
    nodes.append(NavNode(TranslatorsWords(ctx.lang).raw("title"), TRANSLATORS_PATH))
    return tuple(nodes)


MENU_ITEMS = 60
"""Most items one level of the menu lists (the bundled games' largest kind has 57)."""


def _menu_groups(items: list[NavNode]) -> tuple[NavNode, ...]:
    """``items`` as they are, or in groups of at most :data:`MENU_ITEMS` in their order, each titled by its first and
    last item (groups of groups when there are more than that many groups).

    The theme renders, into every page, the items of every level above the page (``navigation.prune``): a kind of
    1,800 entries put 1,800 links into each of its pages, and templating the menu grew with the square of the entries
    (a tree of 20,000 entries would have taken hours to build, issue 28). Grouped, a page carries its own group and
    its kind's groups, and every entry stays in the menu.
    """
    def leaf(node: NavNode, end: int) -> str:
        return leaf(node.children[end], end) if node.children else node.title

    while len(items) > MENU_ITEMS:
        count = -(-len(items) // MENU_ITEMS)  # groups needed
        size = -(-len(items) // count)  # as even as may be
        chunks = [items[i:i + size] for i in range(0, len(items), size)]
        items = [NavNode(f"{leaf(chunk[0], 0)} – {leaf(chunk[-1], -1)}", None, tuple(chunk)) for chunk in chunks]
    return tuple(items)


@dataclass(frozen=True)
class Basis:
    """What :func:`unchanged_pages` reads of the content a site was made from: kept with the site, so that a later
    command (``kb build`` after an edit) can tell which of its pages the edit cannot have changed (issue 33)."""

    digests: dict[str, str]
    """Every content file's hash, by its path relative to the content folder."""
    games: tuple[str, ...]
    """The games."""
    links: tuple[tuple[str, str], ...]
    """Every link between entries: (source, target) ids."""
    pages: dict[str, tuple[str, str]]
    """Each entry's game and page path, by its id."""
    said: dict[str, str]
    """Per game, a hash of what its entries' worked examples gave (each one's status, error, details)."""
    head: str = ""
    """The git commit the content was at (the translations' status reads its history)."""


def basis(kb: "Linked", results: Mapping[str, Mapping[str, ExampleResult]], head: str = "") -> Basis:
    """The :class:`Basis` of a site made from ``kb`` with the worked examples' ``results`` (by entry) at ``head``."""
    rows: dict[str, list[str]] = {}
    for entry_id, by_example in sorted(results.items()):
        game = kb.entries[entry_id].game if entry_id in kb.entries else ""
        rows.setdefault(game, []).extend(repr((entry_id, r.example.id, r.status, r.error, r.details, r.mismatches))
                                         for _, r in sorted(by_example.items()))
    return Basis(dict(kb.digests), tuple(sorted(kb.games)), tuple((lk.source, lk.target) for lk in kb.graph.links),
                 {i: (e.game, entry_path(e)) for i, e in kb.entries.items()},
                 {g: hashlib.sha256("\n".join(r).encode()).hexdigest()[:16] for g, r in rows.items()}, head)


def build_site(kb: "Linked", results: Iterable[ExampleResult] | Mapping[str, Mapping[str, ExampleResult]],
               lang: str, before: tuple[Site, Basis] | None = None, head: str = "", repo_url: str | None = None) -> Site:
    """Every page of the site in ``lang``, and its navigation.

    ``before``: this language's site as it was made from an earlier state of the same content, and that state's
    :class:`Basis` (the live preview, ``mkdocs serve --dirty``; ``kb build`` after an edit). Pages that cannot differ
    are taken from it instead of being made again (see :func:`unchanged_pages`); the result is the same as without
    it. ``head``: the git commit the content is at. ``repo_url``: ``mkdocs.yml``'s, where the translators' page links
    its guide (:func:`kb.site.translators.guide_url`).
    """
    by_entry = results if isinstance(results, Mapping) else results_by_entry(results)
    ctx = SiteContext(kb, by_entry, lang, repo_url=repo_url)
    nav = navigation(ctx)
    kept = (unchanged_pages(before[0], before[1], basis(kb, by_entry, head))
            if before is not None and before[0].nav == nav and before[0].lang == lang else {})
    return Site(lang, tuple(all_pages(ctx, kept)), nav)


def unchanged_pages(site: Site, old: Basis, new: Basis) -> dict[str, SitePage]:
    """The pages of ``site`` (made from the content ``old`` describes, with the menu the new content has) that the
    content ``new`` describes would make the same.

    A game's pages read only its own folder's files (entries, ``game.yaml``), the resolvers its examples use (any
    game's ``mechanics.py``: their labels), what its worked examples gave, the titles of the entries they link to or
    are linked from (the menu holds every title, so those are the same) and those entries' links: so when every file
    that changed is in a game's folder and is not a ``mechanics.py``, the pages of the other games are kept, except
    the pages of entries linked to or from a changed game's entries, before or after the change. A game whose
    examples gave something else (a timeout under load) counts as changed. The pages outside the games (home, concept
    map, translators) are always made again. A change elsewhere (the shared concepts, a file outside a game, a
    game's resolvers) or of the git commit (the translations' status) keeps nothing.
    """
    games = _changed_games(old, new)
    if games is None or old.head != new.head:
        return {}
    games |= {g for g in set(old.said) | set(new.said) if old.said.get(g) != new.said.get(g)}
    again = _linked_pages(old, games) | _linked_pages(new, games)
    return {p.path: p for p in site.pages
            if p.path.partition("/")[0] in set(new.games) - games and p.path not in again}


def _changed_games(old: Basis, new: Basis) -> set[str] | None:
    """The games whose folders hold a file that changed between ``old`` and ``new``; None when a file outside
    the games' folders changed, or a game's ``mechanics.py`` (any game's entries may use its resolvers)."""
    changed = {f for f in set(old.digests) | set(new.digests) if old.digests.get(f) != new.digests.get(f)}
    games = {f.partition("/")[0] for f in changed if "/" in f}
    inside = all("/" in f and not f.endswith("/mechanics.py") for f in changed)
    return games if games <= set(new.games) and inside else None


def _linked_pages(content: Basis, games: set[str]) -> set[str]:
    """The pages of the entries that link to or are linked from an entry of ``games``."""
    game = {i: g for i, (g, _) in content.pages.items()}
    ends = {end for link in content.links for end, other in (link, link[::-1]) if game.get(other) in games}
    return {content.pages[i][1] for i in ends if i in content.pages}