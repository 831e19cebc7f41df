"""One entry as one structured view, worded in one language: what every output of an entry reads.

The site's Markdown (:func:`kb.site.render.render_entry`), the terminal text
(:func:`kb.site.text.render_text`, ``kb show``) and the search documents (:mod:`kb.search.index`)
all walk the :class:`EntryView` that :func:`entry_view` builds, so a new field is one change here
and each output decides only how it marks the view up.

Everything in a view is plain, unescaped text in the page's language. A value is a tuple of
:class:`Span`: content text (which may hold ``{@kind id|display}`` links, resolved by each output),
a literal (a name, a number, a word of the interface), a link to an entry, or text in another
language (a term's English forms on a Spanish page).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator, Mapping

from kb.core.locale import LANGS, gettext, pgettext, signed
from kb.core.model import Entry, Text
from kb.core.questions import shown_questions
from kb.examples.runner import ExampleResult
from kb.link.linker import LINK, Link
from kb.mechanics import Resolver
from kb.mechanics.procedures import numbered_steps
from kb.view.worked import ExampleView, Names, example_view

__all__ = ["Span", "Value", "Row", "Table", "Prose", "Step", "Steps", "Example", "Refs", "Questions", "Ruling",
           "Source", "Section", "EntryView", "entry_view", "sequence_steps", "entry_steps", "fact_data", "value", "forms", "facts", "modifier_rows", "interface", "content_texts", "shown_links", "SECTIONS", "CONTENT", "LITERAL", "REF"]

CONTENT, LITERAL, REF = "content", "literal", "ref"
"""The kinds of :class:`Span`."""


@dataclass(frozen=True)
class Span:
    """A piece of a value: ``content`` text (with ``{@…}`` links), a ``literal``, or a ``ref`` to ``target``."""

    text: str
    kind: str = CONTENT
    target: str | None = None
    """The entry a ``ref`` links to."""
    anchor: str | None = None
    """The place in that entry (a step id), if any."""
    lang: str | None = None
    """The text's language when it is not the page's (marked so readers and the language lint know)."""


Value = tuple[Span, ...]


@dataclass(frozen=True)
class Row:
    """One row of a two-column table."""

    key: Value
    value: Value


@dataclass(frozen=True)
class Table:
    """Rows under a header (``head``: two interface words)."""

    head: tuple[str, str]
    rows: tuple[Row, ...]


@dataclass(frozen=True)
class Prose:
    """Content text (Markdown-ish paragraphs, with ``{@…}`` links)."""

    text: str


@dataclass(frozen=True)
class Step:
    """A step of a sequence; ``numbered`` is false for a step the rulebook prints without a number."""

    id: str
    title: Value
    text: Value
    allows: tuple[Value, ...]
    numbered: bool
    steps: tuple["Step", ...]
    number: str | None = None
    """The step's number as the rulebook prints it (``3``, ``3.2``; ``None`` when unnumbered), counted as the
    ``procedure.*`` resolvers count it (:func:`kb.mechanics.procedures.numbered_steps`)."""


@dataclass(frozen=True)
class Steps:
    """A sequence's steps, and when it repeats (empty: it does not say)."""

    steps: tuple[Step, ...]
    repeats: Value


@dataclass(frozen=True)
class Example:
    """A worked example with its id (outputs make its anchor)."""

    id: str
    view: ExampleView


@dataclass(frozen=True)
class Refs:
    """Links to entries, each (id, title shown)."""

    items: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Questions:
    """Players' own questions (literal text)."""

    items: tuple[str, ...]


@dataclass(frozen=True)
class Ruling:
    """A ruling's question and answer, and its other fields (authority, date) as rows."""

    question: Value
    answer: Value
    rows: tuple[Row, ...]


Body = Ruling | Prose | Table | Steps | tuple[Example, ...] | Questions | Refs


@dataclass(frozen=True)
class Section:
    """One part of the entry, in reading order: ``key`` names it (``ruling``, ``text``, ``facts``,
    ``modifiers``, ``steps``, ``notes``, ``examples``, ``player_questions``, ``see_also``,
    ``referenced_by``); ``heading`` is its interface word in the language."""

    key: str
    heading: str
    body: Body


@dataclass(frozen=True)
class Source:
    """Where the entry comes from: the document's title (``None``: only its file name is known) and
    the section, a heading of the Spanish source (``section_lang`` set when the page is not Spanish)."""

    title: str | None
    doc: str
    section: str
    section_lang: str | None


@dataclass(frozen=True)
class EntryView:
    """An entry worded in ``lang``: its header, its sections in reading order, its source."""

    id: str
    lang: str
    title: str
    meta: tuple[str, ...]
    """Kind, game and (when not core) rule type, as words."""
    also_called: tuple[str, ...]
    summary: str | None
    """Content text."""
    sections: tuple[Section, ...]
    source: Source | None

    def section(self, key: str) -> Section | None:
        return next((s for s in self.sections if s.key == key), None)


def interface(key: str, lang: str) -> str:
    """An interface word of entry pages in ``lang`` (gettext, ``msgctxt "label"``); an unknown key
    (a fact's name from content) is shown as it is."""
    return pgettext(lang if lang in LANGS else "en", "label", str(key))


def _no_names(_: str) -> None:
    return None


def shown_links(text: str, lang: str, titles: Callable[[str], Text | None]) -> str:
    """Content text with each ``{@kind id|shown}`` link replaced by the words a reader sees: its shown
    text, else the target's title in ``lang``, else the id. The one place a link becomes words."""
    def shown(m: re.Match[str]) -> str:
        title = titles(m["target"])
        return m["display"] or (title.best(lang) if title else m["target"])

    return LINK.sub(shown, text)


def _literal(text: str) -> Value:
    return (Span(text, LITERAL),)


def _joined(values: Iterable[Value], sep: str = ", ") -> Value:
    out: list[Span] = []
    for i, v in enumerate(values):
        if i:
            out.append(Span(sep, LITERAL))
        out += v
    return tuple(out)


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def value(data: Any, lang: str, names: Names = _no_names, sign: bool = False) -> Value:
    """A datum of the content as a value: a text in ``lang``, yes/no, a number the language's way
    (``sign``: always with its sign, as a modifier), a list, or an id shown by its name."""
    if isinstance(data, bool):
        return _literal(gettext(lang, "yes" if data else "no"))
    if isinstance(data, dict) and "es" in data:
        es, en = data.get("es"), data.get("en")
        return (Span(Text(es if isinstance(es, str) else _show(es), en if isinstance(en, str) else None).best(lang)),)
    if isinstance(data, list):
        return _joined(value(v, lang, names, sign) for v in data)
    if isinstance(data, (int, float)):
        return _literal(signed(data, lang) if sign or data < 0 else signed(data, lang).lstrip("+"))
    name = names(str(data))
    return _literal(name.best(lang) if name else str(data))


def forms(by_lang: Mapping[str, Iterable[str]], lang: str) -> Value:
    """A term's forms per language, ``español: a, b; inglés: c`` (the other language's forms marked as such)."""
    parts: list[Value] = []
    for lg, words in by_lang.items():
        shown = [str(w) for w in (words if isinstance(words, (list, tuple)) else ())]
        if shown:
            other = str(lg) if lg != lang and re.fullmatch(r"[a-z]{2}", str(lg)) else None
            parts.append((Span(f"{interface('lang_' + str(lg), lang)}: ", LITERAL), Span(", ".join(shown), LITERAL, lang=other)))
    return _joined(parts, "; ")


_HIDDEN_FACTS = ("concept", "concept_note", "forbidden", "do_not_translate")


def _fact(key: str, data: Any, lang: str, titles: Callable[[str], Text | None], names: Names) -> Value:
    if key == "costs" and isinstance(data, list):
        return _costs(data, lang)
    if key in ("forms", "abbreviations") and isinstance(data, dict):
        return forms(data, lang)
    if key == "phase" and isinstance(data, str) and not set(data) & set("{}"):
        return _phase(data, lang, titles, names)
    if key == "movement_cost_change" and isinstance(data, int):
        return _literal(signed(data, lang))
    return value(data, lang, names)


def _costs(data: list[Any], lang: str) -> Value:
    """``base: cost`` pairs."""
    return _joined(value(c.get("base"), lang) + _literal(": ") + value(c.get("cost"), lang) for c in data if isinstance(c, dict))


def _phase(data: str, lang: str, titles: Callable[[str], Text | None], names: Names) -> Value:
    """A link to the step ``<sequence id>#<step id>`` (or to the sequence), shown by the step's own title."""
    target, _, step_id = data.partition("#")
    step = names(data) if step_id else None  # the step's own title, not the sequence's
    shown = step.best(lang) if step and not set(step.best(lang)) & set("{}|") else _ref(target, lang, titles)[1]
    return (Span(shown, REF, target, step_id or None),)


def fact_data(entry: Entry) -> dict[str, Any]:
    """The kind-specific facts an entry's page shows, as the content gives them (key → datum): what :func:`facts`
    words, and a ruling's authority and date (its section shows them). A sequence's steps are
    :func:`entry_steps`; a ruling's question and answer are prose."""
    block = entry.data.get(entry.kind)
    if not isinstance(block, dict) or entry.kind == "sequence":
        return {}
    if entry.kind == "ruling":
        return {k: block[k] for k in _RULING_FACTS if k in block}
    return {k: v for k, v in block.items() if k not in _HIDDEN_FACTS}


_RULING_FACTS = ("authority", "date")


def facts(entry: Entry, lang: str, titles: Callable[[str], Text | None] = _no_names, names: Names = _no_names,
          keys: Iterable[str] | None = None) -> list[Row]:
    """Kind-specific facts as rows (only those named in ``keys`` when given); ids among the values shown by
    their names. A sequence's steps and a ruling have sections of their own."""
    if entry.kind == "ruling":
        return []
    wanted = None if keys is None else set(keys)
    return [Row(_literal(interface(k, lang)), _fact(k, v, lang, titles, names)) for k, v in fact_data(entry).items()
            if wanted is None or k in wanted]


def entry_steps(entry: Entry, lang: str, titles: Callable[[str], Text | None] = _no_names,
                names: Names = _no_names) -> tuple[Step, ...]:
    """A sequence entry's steps (none for another kind) by :func:`sequence_steps`; without ``titles`` and
    ``names``, step ids and allowed actions are the content's own words."""
    seq = entry.data.get("sequence") if entry.kind == "sequence" else None
    return sequence_steps(seq.get("steps", []), lang, entry.game, titles, names) if isinstance(seq, dict) else ()


def sequence_steps(items: Any, lang: str, game: str = "", titles: Callable[[str], Text | None] = _no_names,
                   names: Names = _no_names) -> tuple[Step, ...]:
    """A sequence's steps worded in ``lang``; an allowed action links to ``<game>.<name>`` when that entry exists."""
    numbers = {id(step): number for step, number in numbered_steps(items)}  # by the step's own mapping
    return _steps(items, lang, _action(game, lang, titles, names), numbers)


def _steps(items: Any, lang: str, allows: Callable[[str], Value], numbers: Mapping[int, Any]) -> tuple[Step, ...]:
    out = []
    for i, step in enumerate(items if isinstance(items, list) else [], 1):
        if not isinstance(step, dict):
            continue  # the schema reports it
        text = value(step["text"], lang) if step.get("text") else ()
        allowed = step.get("allows")
        out.append(Step(str(step.get("id", i)), value(step.get("title", {}), lang), text,
                        tuple(allows(str(a)) for a in allowed) if isinstance(allowed, list) else (),
                        step.get("numbered", True) is not False, _steps(step.get("steps", []), lang, allows, numbers),
                        None if numbers.get(id(step)) is None else str(numbers[id(step)])))
    return tuple(out)


def _action(game: str, lang: str, titles: Callable[[str], Text | None], names: Names) -> Callable[[str], Value]:
    """An action named in a step's ``allows``: a link to ``<game>.<name>`` when that entry exists, else its name."""

    def show(name: str) -> Value:
        found = titles(f"{game}.{name}")
        if found:
            return (Span(found.best(lang), REF, f"{game}.{name}"),)
        named = names(name)
        return _literal(named.best(lang) if named else name)

    return show


def _ref(target: str, lang: str, titles: Callable[[str], Text | None]) -> tuple[str, str]:
    found = titles(target)
    return target, found.best(lang) if found else target


def _ruling(entry: Entry, lang: str) -> Ruling | None:
    data = entry.data.get("ruling") if entry.kind == "ruling" else None
    if not isinstance(data, dict):
        return None
    rows = tuple(Row(_literal(interface(k, lang)), value(v, lang)) for k, v in fact_data(entry).items())
    return Ruling(value(data.get("question"), lang), value(data.get("answer"), lang), rows)


def _table(entry: Entry, lang: str, titles: Callable[[str], Text | None], names: Names) -> Table:
    rows = facts(entry, lang, titles, names)
    if entry.term and entry.term.concept:
        concept = entry.term.concept
        rows.append(Row(_literal(interface("concept_link", lang)), (Span(_ref(concept, lang, titles)[1], REF, concept),)))
        note = entry.data["term"].get("concept_note")
        if isinstance(note, dict):
            rows.append(Row(_literal(interface("concept_note", lang)), value(note, lang)))
    return Table((interface("field", lang), interface("value", lang)), tuple(rows))


def modifier_rows(entry: Entry, lang: str) -> tuple[Row, ...]:
    """The entry's ``modifiers`` table as rows: the value with its sign, and when it applies."""
    mods = entry.data.get("modifiers")
    return tuple(Row(value(m.get("value"), lang, sign=True), value(m.get("when"), lang))
                 for m in (mods if isinstance(mods, list) else []) if isinstance(m, dict))


def _modifiers(entry: Entry, lang: str) -> Table:
    return Table((interface("value", lang), interface("when", lang)), modifier_rows(entry, lang))


def _source(entry: Entry, lang: str, documents: Mapping[str, Text]) -> Source | None:
    src = entry.data.get("source")
    if not isinstance(src, dict):
        return None
    doc = documents.get(str(src.get("doc")))  # the document's title from game.yaml, not its file name
    return Source(doc.best(lang) if doc else None, str(src.get("doc")), str(src.get("section")),
                  None if lang == "es" else "es")  # section titles are the Spanish source's own headings


@dataclass(frozen=True)
class _Ask:
    """What a section is built from."""

    entry: Entry
    lang: str
    titles: Callable[[str], Text | None]
    backlinks: tuple[Link, ...]
    results: Mapping[str, ExampleResult]
    resolvers: Callable[[str], Resolver | None]
    names: Names


def _text_of(a: _Ask) -> Body | None:
    return Prose(a.entry.best("text", a.lang)) if a.entry.text("text") else None


def _facts_of(a: _Ask) -> Body | None:
    table = _table(a.entry, a.lang, a.titles, a.names)
    return table if table.rows else None


def _modifiers_of(a: _Ask) -> Body | None:
    table = _modifiers(a.entry, a.lang)
    return table if table.rows else None


def _steps_of(a: _Ask) -> Body | None:
    seq = a.entry.data.get("sequence") if a.entry.kind == "sequence" else None
    if not isinstance(seq, dict):
        return None
    steps = entry_steps(a.entry, a.lang, a.titles, a.names)
    return Steps(steps, value(seq["repeats"], a.lang) if seq.get("repeats") else ())


def _notes_of(a: _Ask) -> Body | None:
    return Prose(a.entry.best("notes", a.lang)) if a.entry.text("notes") else None


def _examples_of(a: _Ask) -> Body | None:
    return tuple(Example(ex.id, example_view(a.entry, ex, a.results.get(ex.id), a.lang, a.resolvers(ex.mechanic), a.names))
                 for ex in a.entry.examples) or None


def _questions_of(a: _Ask) -> Body | None:
    shown = shown_questions(a.entry, a.lang)
    return Questions(shown) if shown else None


def _see_also_of(a: _Ask) -> Body | None:
    return Refs(tuple(_ref(t, a.lang, a.titles) for t in a.entry.see_also)) if a.entry.see_also else None


def _referenced_by_of(a: _Ask) -> Body | None:
    sources = sorted({lk.source for lk in a.backlinks if lk.source != a.entry.id})
    return Refs(tuple(_ref(s, a.lang, a.titles) for s in sources)) if sources else None


SECTIONS: tuple[tuple[str, Callable[[_Ask], Body | None]], ...] = (
    ("ruling", lambda a: _ruling(a.entry, a.lang)), ("text", _text_of), ("facts", _facts_of),
    ("modifiers", _modifiers_of), ("steps", _steps_of), ("notes", _notes_of), ("examples", _examples_of),
    ("player_questions", _questions_of), ("see_also", _see_also_of), ("referenced_by", _referenced_by_of))
"""The sections of an entry in reading order, each with what builds it (``None``: the entry has none).
A new field is one more line here (and its markup in each output)."""


_SAID_BY_KIND = {"ruling": "clarification"}
"""The rule type a kind already says: a ruling is a clarification, so its line under the title does not add it
(«Aclaración · BattleTech: Solaris VII · aclaración», phone audit 3, D14); a rule's «aclaración» still shows."""


def entry_view(
    entry: Entry,
    lang: str,
    titles: Callable[[str], Text | None],
    backlinks: Iterable[Link] = (),
    results: Mapping[str, ExampleResult] | None = None,
    resolvers: Callable[[str], Resolver | None] = lambda _name: None,
    names: Names = _no_names,
    documents: Mapping[str, Text] | None = None,
) -> EntryView:
    """The entry worded in ``lang``.

    ``titles`` gives the title of an entry by id; ``backlinks`` the links to this entry;
    ``results`` the worked examples' results by example id; ``resolvers`` each example's resolver
    (for the labels of its inputs, outputs and values); ``names`` the names of the ids the entry's
    facts and examples mention (the game's too); ``documents`` the titles of the source documents by
    file name (``sources:`` in ``game.yaml``).
    """
    game = names(entry.game)
    meta = [interface(entry.kind, lang), game.best(lang) if game else entry.game]
    if entry.rule_type != "core" and _SAID_BY_KIND.get(entry.kind) != entry.rule_type:
        meta.append(interface(entry.rule_type, lang))
    summary = entry.text("summary")
    ask = _Ask(entry, lang, titles, tuple(backlinks), results or {}, resolvers, names)
    sections = [Section(key, interface(key, lang), body) for key, build in SECTIONS if (body := build(ask))]
    return EntryView(entry.id, lang, entry.title.best(lang), tuple(meta), tuple(entry.also_called(lang)),
                     summary.best(lang) if summary else None, tuple(sections), _source(entry, lang, documents or {}))


def content_texts(view: EntryView) -> Iterator[str]:
    """Every content text the view shows in its sections (not the title, summary or interface words),
    in reading order: what a search document's body holds."""
    for section in view.sections:
        yield from _texts(section.body)


def _value_texts(v: Value) -> Iterator[str]:
    yield from (s.text for s in v if s.kind == CONTENT)


def _texts(body: Body) -> Iterator[str]:
    if isinstance(body, Prose):
        yield body.text
    elif isinstance(body, Ruling):
        yield from (*_value_texts(body.question), *_value_texts(body.answer))
        for row in body.rows:
            yield from _value_texts(row.value)
    elif isinstance(body, Table):
        for row in body.rows:
            yield from (*_value_texts(row.key), *_value_texts(row.value))
    elif isinstance(body, Steps):
        yield from _step_texts(body.steps)
        yield from _value_texts(body.repeats)
    elif isinstance(body, tuple):
        for ex in body:
            yield ex.view.title
            if ex.view.note:
                yield ex.view.note


def _step_texts(steps: tuple[Step, ...]) -> Iterator[str]:
    for step in steps:
        yield from (*_value_texts(step.title), *_value_texts(step.text))
        yield from _step_texts(step.steps)
