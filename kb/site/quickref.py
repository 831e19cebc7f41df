"""A game's quick reference: one page per game and language, ``<game>/quickref.md`` (pure).

What a player keeps open at the table, generated from the content (never written by hand), each item
linked to its entry, short enough to print on two A4 pages (``kb.css``, "Quick reference"):

1. the turn sequence (:func:`kb.site.place.turn_sequence`): every step as the rulebook numbers it, its
   text and the actions it allows, each step linking to its place on the sequence's page;
2. the actions: each action entry of the game with its cost (``cost`` and ``cost_type``) and the phase
   it is taken in (``phase``), in the order of the turn sequence's steps, then by title;
3. the key numbers: every ``modifiers`` table of the game's entries (value, when it applies) and the
   movement costs terrain states (``movement_cost_change``, ``costs``), each with its entry;
4. the key rules: the game's ``rule`` entries of type ``core`` (optional, variant and clarification
   rules are left out), each with its summary;
5. the game's other sequences, as links.

A section the content has nothing for is left out. Every string from the content goes through the
renderer's escaping (:mod:`kb.site.render`); interface words come from the gettext catalogs.
"""

from __future__ import annotations

from typing import Callable, Iterable

from kb.core.model import Entry
from kb.core.terms import fold
from kb.site.place import turn_sequence
from kb.site.render import cell, entry_anchor, escape, filled, inline, label, markdown_value, steps
from kb.site.structure import SiteContext, SitePage, entry_path, finish, game_title, relative, t, word
from kb.view.entry import Row, Value, facts, modifier_rows, sequence_steps

__all__ = ["PAGE", "KEY_FACTS", "quickref_path", "quickref_page", "key_rules", "key_number_entries"]

PAGE = "quickref"
"""The page's name in each game's folder (reserved: an entry with this slug gets ``quickref-entry``)."""
KEY_FACTS = ("movement_cost_change", "costs")
"""The facts of a kind's block that are key numbers (terrain's movement costs); ``modifiers`` tables always are."""


def quickref_path(game: str) -> str:
    """The quick reference's page path of ``game``."""
    return f"{game}/{PAGE}.md"


def _sorted(entries: Iterable[Entry], lang: str) -> list[Entry]:
    return sorted(entries, key=lambda e: (fold(e.title.best(lang)), e.id))


def key_rules(ctx: SiteContext, game: str) -> list[Entry]:
    """The game's key rules: its ``rule`` entries of type ``core``, by title."""
    return _sorted((e for e in ctx.kb.filter(game=game, kind="rule") if e.rule_type == "core"), ctx.lang)


def key_number_entries(ctx: SiteContext, game: str) -> list[Entry]:
    """The game's entries with key numbers: a ``modifiers`` table or a key fact (:data:`KEY_FACTS`)."""
    return _sorted((e for e in ctx.kb.filter(game=game) if modifier_rows(e, ctx.lang) or _key_facts(ctx, e)), ctx.lang)


def _key_facts(ctx: SiteContext, entry: Entry) -> list[Row]:
    return facts(entry, ctx.lang, ctx.titles, ctx.names(entry.game), keys=KEY_FACTS)


def _step_order(sequence: Entry | None) -> dict[str, int]:
    """``<sequence id>#<step id>`` -> the step's position in the sequence, depth first."""
    order: dict[str, int] = {}

    def walk(items: object) -> None:
        for step in items if isinstance(items, list) else ():
            if isinstance(step, dict) and sequence is not None:
                order.setdefault(f"{sequence.id}#{step.get('id')}", len(order))
                walk(step.get("steps"))

    if sequence is not None:
        walk((sequence.data.get("sequence") or {}).get("steps"))
    return order


def _actions_table(ctx: SiteContext, rows: list[tuple[str, str, str, str]]) -> list[str]:
    """The actions' table from its rows (link, cost, phase, phase as shown): a column no action fills (a game whose
    rules give no costs, or no phases) is left out, not shown as a column of dashes."""
    columns: list[tuple[str, Callable[[tuple[str, str, str, str]], str]]] = [(label("action", ctx.lang), lambda r: r[0])]
    if any(r[1] for r in rows):
        columns.append((label("cost", ctx.lang), lambda r: r[1] or cell(t(ctx, "none"))))
    if any(r[2] for r in rows):
        columns.append((label("phase", ctx.lang), lambda r: r[3]))
    return ["| " + " | ".join(cell(head) for head, _ in columns) + " |", "|" + "---|" * len(columns),
            *("| " + " | ".join(cell(r) for _, cell in columns) + " |" for r in rows)]


class _Page:
    """The Markdown of one game's quick reference in one language."""

    def __init__(self, ctx: SiteContext, game: str) -> None:
        self.ctx, self.game, self.path = ctx, game, quickref_path(game)
        self.link = ctx.link_from(self.path)
        self.sequence = turn_sequence(ctx.kb.filter(game=game, kind="sequence"))

    def show(self, v: Value) -> str:
        return markdown_value(v, self.ctx.lang, self.ctx.titles, self.link)

    def fmt(self, text: str) -> str:
        return inline(text, self.ctx.lang, self.ctx.titles, self.link)

    def entry_link(self, e: Entry) -> str:
        """A link to ``e`` by its title, fit for a table's cell too (a ``|`` in the title a character)."""
        title = self.ctx.text(e.title, self.path, e.title.es)
        return f"[{cell(escape(title))}]({relative(self.path, entry_path(e))})"

    def turn(self) -> list[str]:
        seq = self.sequence
        if seq is None:
            return []
        ctx = self.ctx
        out = [f"## {t(ctx, 'turn_sequence')} {{#qr-turn}}", "", self.entry_link(seq), ""]
        items = sequence_steps((seq.data.get("sequence") or {}).get("steps", []), ctx.lang, self.game, ctx.titles,
                               ctx.names(self.game))
        return out + steps(items, ctx.lang, self.show, href=lambda sid: self.link(seq.id, sid)) + [""]

    def actions(self) -> list[str]:
        ctx = self.ctx
        order = _step_order(self.sequence)
        names = ctx.names(self.game)

        def place(e: Entry) -> tuple[int, str, str]:
            phase = (e.data.get("action") or {}).get("phase")
            return (order.get(str(phase), len(order)), fold(e.title.best(ctx.lang)), e.id)

        rows: list[tuple[str, str, str, str]] = []
        last = None
        for e in sorted(ctx.kb.filter(game=self.game, kind="action"), key=place):
            cost = " · ".join(self.show(r.value) for r in facts(e, ctx.lang, ctx.titles, names, keys=("cost", "cost_type")))
            phase = cell("".join(self.show(r.value) for r in facts(e, ctx.lang, ctx.titles, names, keys=("phase",))))
            shown = "" if phase == last else phase or cell(t(ctx, "none"))  # a phase is named on its first action only
            last = phase
            rows.append((self.entry_link(e), cell(cost), phase, shown))
        if not rows:
            return []
        return [f"## {t(ctx, 'action')} {{#qr-actions}}", "", *_actions_table(ctx, rows), ""]

    def numbers(self) -> list[str]:
        ctx = self.ctx
        rows = []
        for e in key_number_entries(ctx, self.game):
            for r in modifier_rows(e, ctx.lang):
                rows.append(f"| {self.entry_link(e)} | {cell(self.show(r.key))} | {cell(self.show(r.value))} |")
            shown = [f"{cell(self.show(r.key))}: {cell(self.show(r.value))}" for r in _key_facts(ctx, e)]
            if shown:  # a fact is no "when": its label goes with its value, an entry's facts on one row
                rows.append(f"| {self.entry_link(e)} | {'; '.join(shown)} | |")
        if not rows:
            return []
        return [f"## {t(ctx, 'key_numbers')} {{#qr-numbers}}", "",
                f"| {cell(t(ctx, 'entry'))} | {cell(label('value', ctx.lang))} | {cell(label('when', ctx.lang))} |",
                "|---|---|---|", *rows, ""]

    def rules(self) -> list[str]:
        ctx = self.ctx
        items = []
        for e in key_rules(ctx, self.game):
            line = f"- {self.entry_link(e)}"
            summary = e.text("summary")
            if summary:
                line += " — " + self.fmt(ctx.text(summary, self.path, e.title.es))
            items.append(line.replace("\n", " "))
        return [f"## {t(ctx, 'key_rules')} {{#qr-rules}}", "", *items, ""] if items else []

    def sequences(self) -> list[str]:
        others = [e for e in _sorted(self.ctx.kb.filter(game=self.game, kind="sequence"), self.ctx.lang)
                  if e is not self.sequence]
        if not others:
            return []
        return [f"## {t(self.ctx, 'other_sequences')} {{#qr-sequences}}", "",
                *(f"- {self.entry_link(e)}" for e in others), ""]


def _as_is(_ctx: SiteContext, _path: str, body: str) -> str:
    return body


def quickref_page(ctx: SiteContext, game: str,
                  notice: Callable[[SiteContext, str, str], str] = _as_is) -> SitePage:
    """The quick reference of ``game`` in the context's language; ``notice`` heads the body with the page's
    notice of texts shown in Spanish (the site's pages give theirs)."""
    page = _Page(ctx, game)
    name = ctx.kb.games[game].name.best(ctx.lang)
    title = game_title(ctx, word(ctx, "quickref"), name)
    head = [f"# {escape(title)} {{#{entry_anchor(game)}-quickref}}", "",
            filled(word(ctx, "quickref_intro"), {"game": f"[{escape(name)}](index.md)"}), ""]
    body = page.turn() + page.actions() + page.numbers() + page.rules() + page.sequences()
    markdown = "\n".join(head + ['<div class="kb-quickref" markdown="1">', ""] + body + ["</div>", ""])
    return finish(ctx, page.path, title, notice(ctx, page.path, markdown), game, f"{word(ctx, 'quickref')}: {name}")
