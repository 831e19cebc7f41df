"""A worked example as a rulebook prints it: the situation, the steps, the outcome, in one language.

The situation and the outcome are rows (a label and a value: a small table); the steps are numbered
sentences, each citing the rule it applies (the step's own ``rule`` when the resolver names one, such
as the step of a sequence a procedure reads, else the example's entry); the odds go with the outcome.

Everything here is plain text in the page's language; the Markdown and terminal renderers add
their own markup. Values never reach the reader as data: an input or output is named by the
label its resolver declares, a value the resolver knows (``walk``, ``entering``) by its label, an
entity (``guild-guard``, a step id, an action) by its name, a number and a percentage the way the
language writes them (``5,5``, ``31,5 %``), a yes/no as a word.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping

from kb.core.diagnostics import visible
from kb.core.locale import fill, gettext, join, number, percent
from kb.core.model import Entry, Example, Text
from kb.mechanics import KINDS_OF_NO, Resolver, Step
from kb.mechanics.procedures import flatten_steps

if TYPE_CHECKING:
    from kb.examples.runner import ExampleResult

__all__ = ["Names", "ExampleView", "WorkedStep", "ExampleRow", "name_finder", "example_view", "value_shower", "refusal_sentence", "sentence"]

Names = Callable[[str], "Text | None"]
"""Maps an id met in an example (a model, a unit, a step, an action, a game) to its name per language."""


@dataclass(frozen=True)
class ExampleRow:
    """One row of the situation or the outcome: a label and its value, worded. A value made of named
    parts (a mapping, a list of mappings) is a row with no value of its own followed by one row per part,
    one level deeper: «Defensores», then «Mago» and under it «Atacar 0», «Vida 2» — never the parts
    strung together as «Mago: Atacar: 0, Vida: 2, …»."""

    label: str
    value: str
    """Empty on a row that heads its parts."""
    depth: int = 0
    """0 for a given or an output; one more per level of parts."""


@dataclass(frozen=True)
class WorkedStep:
    """One step of a worked example: its sentence and the rule it applies."""

    text: str
    rule: str
    """The id of the entry whose rule the step applies (the example's own entry unless the resolver names another)."""
    anchor: str | None
    """The place in that entry (a sequence step's id), if any."""
    rule_name: str
    """The rule's name in the language (the step's own title for a sequence step)."""


@dataclass(frozen=True)
class ExampleView:
    """One worked example, worded in one language (plain text, not escaped)."""

    title: str
    """The example's title."""
    note: str | None
    """The author's words on what it shows (content text: may hold ``{@…}`` links)."""
    given: tuple[ExampleRow, ...]
    """The inputs as rows: ``ExampleRow("Atacante", "Guardia del Gremio")``, ``ExampleRow("Objetivo", "Silúrido")``."""
    steps: tuple[WorkedStep, ...]
    """The resolver's steps, in order."""
    result: tuple[ExampleRow, ...]
    """The outputs as rows (empty on a refusal)."""
    outcome: str
    """What the rule forbids, or why it gives no answer (empty when the resolver answered)."""
    odds: str | None
    """``Probabilidad de herir con un disparo: 63/200 ≈ 31,5 %.``"""
    verified: bool | None
    """Whether the build verified it (``None`` when not run)."""
    refusal: str | None = None
    """When the outcome is a refusal, its kind: ``forbidden``, ``unstated``, ``elsewhere``, ``impossible`` or ``incomplete``."""
    see: str | None = None
    """The id of the entry the refusal points to (the rule that forbids it, or the other case's entry)."""


def _mapping_names(data: Any) -> dict[str, Text]:
    if not isinstance(data, Mapping):
        return {}
    return {str(k): Text(v["es"], v.get("en")) for k, v in data.items() if isinstance(v, Mapping) and "es" in v}


def name_finder(game: str, game_name: Text | None, game_names: Any, entries: Mapping[str, Entry]) -> Names:
    """Names of one game's ids: the game's ``names:`` (in ``game.yaml``), its entries (``<game>.<id>``
    or a full id) and the steps of its sequences, and the game itself."""
    known = _mapping_names(game_names)
    steps: dict[str, Text] = {}
    for e in entries.values():
        if e.game == game and e.kind == "sequence":
            for s in flatten_steps((e.data.get("sequence") or {}).get("steps", [])):
                title = s.get("title")
                if isinstance(title, Mapping) and "es" in title:
                    steps.setdefault(str(s.get("id")), Text(title["es"], title.get("en")))

    def find(value: str) -> Text | None:
        if value in known:
            return known[value]
        if value == game and game_name is not None:
            return game_name
        for key in (value, f"{game}.{value}"):
            if key in entries:
                return entries[key].title
        target, _, step = value.partition("#")
        if step and target in entries:
            return steps.get(step) or entries[target].title
        return steps.get(value)

    return find


def value_shower(lang: str, resolver: Resolver | None, names: Names) -> Callable[[Any], str]:
    """How a value reads in ``lang``: names for ids, labels for the resolver's values, Babel for numbers."""

    def word(value: str) -> str:
        found = names(value)
        if found is not None:
            return found.best(lang)
        label = resolver.label(value, lang) if resolver else None
        return label or value

    def show(value: Any) -> str:
        if value is None:
            return "—"
        if isinstance(value, bool):
            return gettext(lang, "yes" if value else "no")
        if isinstance(value, Fraction) and value.denominator != 1:
            return f"{value.numerator}/{value.denominator}"
        if isinstance(value, (int, float, Fraction)):
            return number(value, lang)
        if isinstance(value, str):
            if ": " in value and names(value) is None:  # a "player: action" pair some resolvers return
                head, _, tail = value.partition(": ")
                return visible(f"{word(head)}: {word(tail)}")
            return visible(word(value))  # a resolver's own text, its control characters as escapes (see sentence)
        if isinstance(value, Mapping):
            return join([f"{show(k)}: {show(v)}" for k, v in value.items()], lang) or "—"
        if isinstance(value, (list, tuple)):
            return join([show(v) for v in value], lang) or "—"
        return visible(str(value))

    return show


def sentence(text: str) -> str:
    """A step's (or a refusal's) text as a sentence: capitalised, ending in a stop. The text comes from a game's
    mechanics module, which nothing checks as YAML is checked: its control characters (ESC, a bidi override, a
    zero-width space) are shown as escapes (``\\x1b``), never put on a page or a terminal as they are."""
    text = visible(text).strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?:…" else text + "."


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _pairs(items: Iterable[tuple[str, Any]], lang: str, resolver: Resolver | None,
           show: Callable[[Any], str]) -> tuple[ExampleRow, ...]:
    """The inputs or outputs as rows, each by its resolver's label; a value with parts as rows of its parts."""
    return tuple(row for k, v in items if v is not None
                 for row in _rows(_capital((resolver.label(k, lang) if resolver else None) or k), v, show, 0))


def _rows(label: str, value: Any, show: Callable[[Any], str], depth: int) -> Iterator[ExampleRow]:
    """``value`` under ``label``: one row, or, when it has named parts (a non-empty mapping, a list holding
    a mapping), a heading row and the parts' rows a level deeper (a mapping's by their keys' names, a
    list's by their place: 1, 2, …)."""
    if isinstance(value, Mapping) and value:
        parts: Iterable[tuple[str, Any]] = ((_capital(show(k)), v) for k, v in value.items())
    elif isinstance(value, (list, tuple)) and any(isinstance(v, Mapping) for v in value):
        parts = ((show(i), v) for i, v in enumerate(value, 1))
    else:
        yield ExampleRow(label, show(value), depth)
        return
    yield ExampleRow(label, "", depth)
    for name, part in parts:
        yield from _rows(name, part, show, depth + 1)


def _worked_step(step: Step, entry: Entry, lang: str, show: Callable[[Any], str], find: Names) -> WorkedStep:
    """The step's sentence and the rule it cites: its own ``rule`` (``<entry id>#<step id>``, or a game's
    entry without the game's prefix) when the resolver names one, else the example's entry."""
    target, _, anchor = (step.rule or entry.id).partition("#")
    target = target if "." in target else (f"{entry.game}.{target}" if target else entry.id)
    name = (find(f"{target}#{anchor}") if anchor else None) or find(target) or (entry.title if target == entry.id else None)
    return WorkedStep(sentence(step.say(lang, show)), target, anchor or None, name.best(lang) if name else target)


def example_view(entry: Entry, ex: Example, result: ExampleResult | None, lang: str, resolver: Resolver | None,
                 names: Names) -> ExampleView:
    """The example worded in ``lang``: its own ``names:`` first, then ``names`` for the game's ids."""
    own = _mapping_names(entry.data["examples"][ex.index].get("names") if ex.index < len(entry.data.get("examples", [])) else None)
    find: Names = lambda v: own.get(v) or names(v)  # noqa: E731
    show = value_shower(lang, resolver, find)
    title = ex.title.best(lang) if ex.title else ex.id
    given = _pairs(ex.given.items(), lang, resolver, show)
    steps: tuple[WorkedStep, ...] = ()
    rows: tuple[ExampleRow, ...] = ()
    outcome, odds = "", None
    if result is not None and result.outcome is not None:
        steps = tuple(_worked_step(s, entry, lang, show, find) for s in result.outcome.trace)
        rows = _pairs(result.outcome.values.items(), lang, resolver, show)
        ch = result.outcome.chance
        if ch is not None and ch.event.get(lang):
            p = ch.probability
            if p.denominator == 1:  # certain or impossible: "0/1 ≈ 0 %" says nothing a percentage does not
                odds = fill(gettext(lang, "Chance of {event}: {percent}."), {"event": visible(ch.event.best(lang)),
                                                                            "percent": percent(p, lang)})
            else:
                odds = fill(gettext(lang, "Chance of {event}: {fraction} ≈ {percent}."), {
                    "event": visible(ch.event.best(lang)), "fraction": f"{p.numerator}/{p.denominator}",
                    "percent": percent(p, lang)})
    refusal = see = None
    if result is not None and result.outcome is None and result.message is not None:
        refusal, see = _kind(result.kind), result.see
        outcome = refusal_sentence(refusal, sentence(result.message.say(lang, show)), _see_name(see, entry, find, lang), lang)
    elif (result is None or result.outcome is None) and ex.expect_error:
        refusal, see = _kind(ex.error_kind), ex.error_see
        outcome = refusal_sentence(refusal, None, _see_name(see, entry, find, lang), lang)
    note = ex.note.best(lang) if ex.note else None
    return ExampleView(title, note, given, steps, rows, outcome, odds, None if result is None else result.passed,
                       refusal, see)


def _kind(kind: str | None) -> str:
    """The kind of "no" a refusal is shown as: its own, or ``forbidden`` when it names none or one that is
    not a kind (a broken example, which ``kb check`` reports; the page still renders)."""
    return kind if kind in KINDS_OF_NO else "forbidden"


def _see_name(see: str | None, entry: Entry, find: Names, lang: str) -> str | None:
    """The name of the entry a refusal points to (``None`` when it is the example's own entry or none)."""
    if not see or see == entry.id:
        return None
    name = find(see)
    return name.best(lang) if name else see


_SAID = {
    "forbidden": ("The rules forbid it: {reason}", "The rules forbid it."),
    "unstated": ("The rules don't say: {reason}", "The rules don't say."),
    "impossible": ("That cannot happen: {reason}", "That cannot happen."),
    "incomplete": ("Missing information: {reason}", "Missing information."),
    "elsewhere": ("Another case: {reason}", "Another case."),
}
"""The sentence of each kind of "no" (``elsewhere`` when it names no entry: a calculator's, or one whose entry is the
page's own), with a reason, and bare."""


def refusal_sentence(kind: str, reason: str | None, see: str | None, lang: str) -> str:
    """What a refusal tells a player, by its kind: the rules forbid it (naming the rule when it is another
    entry's), the rules don't say, it is another case (naming the entry that covers it), that cannot happen,
    or a fact is missing."""
    if kind == "elsewhere" and see:
        if reason:
            return fill(gettext(lang, "Another case: {reason} See {entry}."), {"reason": reason, "entry": see})
        return fill(gettext(lang, "Another case: see {entry}."), {"entry": see})
    if kind == "forbidden" and see and reason:
        return fill(gettext(lang, "{rule} forbids it: {reason}"), {"rule": see, "reason": reason})
    with_reason, bare = _SAID[kind]
    return fill(gettext(lang, with_reason), {"reason": reason}) if reason else gettext(lang, bare)
