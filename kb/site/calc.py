"""Calculators on entry pages (issue 30): the resolver's own answers for every combination of a form's fields.

For each entry whose worked examples use a resolver that takes a number or a choice, the page gets one
form per such resolver, first filled with the entry's first example of it. The answers were computed
here, at build time, by the resolver itself (:mod:`kb.mechanics.space`), and worded in the page's
language; they are written as data scripts, one per game, language and resolver
(``<game>/kb-calc-<resolver>.js``, a ``<script src>`` so that ``file://`` pages can read it).
``kb-calc.js`` only looks answers up. See docs/site.md, "Calculators and odds tables".

Pure: :func:`calc_site` returns each page's forms and each data file's text; the MkDocs plugin puts
the forms in place of the slots :func:`calc_markdown` leaves (after sanitising: the forms are engine
markup, every value in them escaped here) and writes the files.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import posixpath
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Mapping
from weakref import WeakKeyDictionary

from kb.core.locale import number, percent, pgettext
from kb.core.model import Entry, Example
from kb.examples.limits import EXAMPLE_LIMITS, TimeLimit, time_limit
from kb.mechanics import Context, Outcome, Resolver
from kb.mechanics.space import MAX_COMBINATIONS, Field, Refusal, Space, answer, enumerate_space, space, takes_choices
from kb.site.structure import SiteContext, entry_path
from kb.view.worked import refusal_sentence, value_shower

if TYPE_CHECKING:
    from kb.link.view import Linked

__all__ = ["Calculator", "CalcSite", "calculators", "calc_markdown", "calc_site", "SCRIPT", "slot", "data_path"]

SCRIPT = "kb-calc.js"
"""The calculators' script (``kb/site/assets/``), loaded only by pages that have a calculator."""


@dataclass(frozen=True)
class Calculator:
    """One form: an entry, the resolver its examples use, the first such example and the space around it."""

    entry: Entry
    example: Example
    resolver: Resolver
    space: Space

    @property
    def key(self) -> str:
        """The space's name inside its data file (the same space on two pages shares it)."""
        raw = json.dumps([self.space.base, [(f.name, f.kind, list(f.values)) for f in self.space.fields],
                          self.entry.id if self.resolver.wants_context else None], sort_keys=True, default=str)
        return hashlib.sha256(raw.encode()).hexdigest()[:10]


FILE_BUDGET = 6144
"""Most combinations one data file (a game's calculators of one resolver) holds: a resolver on many pages gets
smaller spaces on each (never under ``MIN_BUDGET``)."""
MIN_BUDGET = 128


def calculators(entry: Entry, resolver_of: Callable[[str], Resolver | None],
                budget: Callable[[str], int] = lambda _name: MAX_COMBINATIONS) -> list[Calculator]:
    """The entry's calculators: one per resolver its examples use that takes a number or a choice, from its first
    example, each within ``budget(resolver name)`` combinations."""
    out: dict[str, Calculator] = {}
    for ex in entry.examples:
        res = resolver_of(ex.mechanic)
        if res is not None and ex.mechanic not in out and takes_choices(res) and not set(ex.given) - set(res.inputs):
            out[ex.mechanic] = Calculator(entry, ex, res, space(res, ex.given, budget(ex.mechanic)))
    return list(out.values())


def _budget(budgets: Mapping[tuple[str, str], int], game: str, name: str) -> int:
    return budgets.get((game, name), MAX_COMBINATIONS)


def _budgets(kb: "Linked") -> dict[tuple[str, str], int]:
    """Each game's budget per calculator of each resolver: ``FILE_BUDGET`` shared by its calculators."""
    count: dict[tuple[str, str], int] = {}
    for entry in kb.entries.values():
        for calc in calculators(entry, kb.registry.get, lambda _name: 1):
            count[(entry.game, calc.resolver.name)] = count.get((entry.game, calc.resolver.name), 0) + 1
    return {k: max(MIN_BUDGET, min(MAX_COMBINATIONS, FILE_BUDGET // n)) for k, n in count.items()}


def slot(n: int) -> str:
    """The placeholder of the page's ``n``-th form (kept by the sanitiser: a ``div`` with an id)."""
    return f'<div class="kb-calc-slot" id="kb-calc-{n}"></div>'


def calc_markdown(entry: Entry, resolver_of: Callable[[str], Resolver | None], lang: str) -> str:
    """The calculators' section of the entry's page: a heading and one slot per form (empty when none)."""
    found = calculators(entry, resolver_of)
    if not found:
        return ""
    return f"\n\n## {pgettext(lang, 'site', 'calc_title')} {{#calculator}}\n\n" + "\n\n".join(slot(i) for i in range(len(found))) + "\n"


def data_path(game: str, resolver: str) -> str:
    """Where a game's data of one resolver is written, under the language's root."""
    return f"{game}/kb-calc-{resolver.replace('.', '-')}.js"


@dataclass
class CalcSite:
    """A language's calculators: the forms of each page (by its Markdown path) and the data files' text."""

    forms: dict[str, list[str]] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    sizes: dict[str, int] = field(default_factory=dict)
    """Bytes of each data file."""


_ANSWERS: "WeakKeyDictionary[Any, dict[tuple[str, str], list[Outcome | Refusal]]]" = WeakKeyDictionary()
"""The resolvers' answers per knowledge base, kept between the languages' builds (they are the same)."""


def _answers(kb: "Linked", calc: Calculator) -> list[Outcome | Refusal]:
    kept = _ANSWERS.setdefault(kb, {})
    key = (calc.resolver.name, calc.key)
    if key not in kept:
        ctx = Context(calc.entry.data, lambda i: e.data if (e := kb.get(i)) else None) if calc.resolver.wants_context else None
        try:  # a resolver that never answers gets a failed answer everywhere, never a hung build
            with time_limit(EXAMPLE_LIMITS.seconds):
                kept[key] = enumerate_space(calc.space, calc.resolver, ctx)
        except TimeLimit:
            kept[key] = [Refusal("resolver-failed", None, None)] * calc.space.size
    return kept[key]


class _Strings:
    """One table of distinct strings per data file."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._at: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        if text not in self._at:
            self._at[text] = len(self.items)
            self.items.append(text)
        return self._at[text]


@dataclass
class _File:
    strings: _Strings = field(default_factory=_Strings)
    outcomes: list[list[Any]] = field(default_factory=list)
    seen: dict[str, int] = field(default_factory=dict)
    spaces: dict[str, Any] = field(default_factory=dict)


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?:…" else text + "."


class _Words:
    """How one calculator's values, labels and answers read in one language."""

    def __init__(self, calc: Calculator, lang: str, names: Callable[[str], Any]) -> None:
        self.calc, self.lang, self.res = calc, lang, calc.resolver
        own = calc.entry.data["examples"][calc.example.index].get("names") if calc.example.index < len(
            calc.entry.data.get("examples", [])) else None
        own_names = {str(k): v for k, v in (own or {}).items() if isinstance(v, Mapping) and "es" in v}

        def find(value: str) -> Any:
            if value in own_names:
                from kb.core.model import Text
                return Text(own_names[value]["es"], own_names[value].get("en"))
            return names(value)

        self.find = find
        self.show = value_shower(lang, self.res, find)

    def word(self, key: str) -> str:
        label = self.res.label(key, self.lang)
        if label:
            return label
        found = self.find(key)
        return found.best(self.lang) if found is not None else key

    def label(self, f: Field) -> str:
        parts: list[str] = []
        for step in f.path:
            parts.append(str(step + 1) if isinstance(step, int) else self.word(str(step)))
        return " · ".join(parts)

    def chance(self, result: Outcome) -> tuple[str, str, str] | None:
        """The odds sentence, the event and the odds in short (``7/12 ≈ 58,3 %``; ``100 %``) (``None`` without named odds)."""
        ch = result.chance
        if ch is None or not ch.event.get(self.lang):
            return None
        p, event = ch.probability, ch.event.best(self.lang)
        fraction = f"{p.numerator}/{p.denominator}"
        if p.denominator == 1:
            line = pgettext(self.lang, "site", "calc_chance_whole").format(event=event, percent=percent(p, self.lang))
            return line, event, percent(p, self.lang)
        line = pgettext(self.lang, "site", "calc_chance").format(event=event, fraction=fraction, percent=percent(p, self.lang))
        return line, event, f"{fraction} ≈ {percent(p, self.lang)}"

    def outcome(self, result: Outcome | Refusal, strings: _Strings) -> list[Any]:
        """One answer as the data stores it: [answer JSON, steps, [label, value] pairs, odds, refusal]."""
        data = json.dumps(answer(result), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        if isinstance(result, Refusal):
            reason = _sentence(result.error.step.say(self.lang, self.show)) if result.error is not None else None
            said = refusal_sentence(result.kind or "forbidden", reason, None, self.lang)
            return [strings(data), [], [], None, strings(said)]
        steps = [strings(_sentence(s.say(self.lang, self.show))) for s in result.trace]
        pairs = [[strings(self.word(k)), strings(self.show(v))] for k, v in result.values.items() if v is not None]
        odds = self.chance(result)
        return [strings(data), steps, pairs, [strings(x) for x in odds] if odds else None, None]


def _field_data(f: Field, words: _Words, strings: _Strings, lang: str) -> dict[str, Any]:
    out: dict[str, Any] = {"name": f.name, "kind": f.kind, "label": strings(words.label(f)), "n": len(f.values),
                           "optional": f.optional}
    if f.kind in ("integer", "number"):
        out.update(min=f.bounds["minimum"], max=f.bounds["maximum"], step=f.bounds.get("multipleOf", 1),
                   shown=[strings(words.show(v)) for v in f.values if v is not None])
        out["range"] = strings(_range_words(f, lang))
    else:
        out["values"] = [json.dumps(v) for v in f.values]
    return out


def _range_words(f: Field, lang: str) -> str:
    lo, hi = number(f.bounds["minimum"], lang), number(f.bounds["maximum"], lang)
    if "multipleOf" in f.bounds and f.bounds["multipleOf"] != 1:
        return pgettext(lang, "site", "calc_range_step").format(minimum=lo, maximum=hi,
                                                              step=number(f.bounds["multipleOf"], lang))
    return pgettext(lang, "site", "calc_range").format(minimum=lo, maximum=hi)


def _odds_field(calc: Calculator, results: list[Outcome | Refusal]) -> int | None:
    """The variable number the chance turns on (not the roll itself), at the example's other values; ``None`` if none."""
    sp = calc.space
    start = sp.positions(sp.base)
    if start is None:
        return None
    first = results[sp.number(start)]
    roll = first.chance.roll if isinstance(first, Outcome) and first.chance else None
    for i, f in enumerate(sp.variable):
        if f.kind in ("integer", "number") and f.path[0] != roll and _varies(sp, results, start, i):
            return i
    return None


def _varies(sp: Space, results: list[Outcome | Refusal], start: tuple[int, ...], i: int) -> bool:
    """Whether the chance changes with the ``i``-th variable field, the others as in ``start``."""
    seen = set()
    for j in range(len(sp.variable[i].values)):
        r = results[sp.number(start[:i] + (j,) + start[i + 1:])]
        if isinstance(r, Outcome) and r.chance is not None:
            seen.add(r.chance.probability)
    return len(seen) > 1


def _add_space(file: _File, calc: Calculator, results: list[Outcome | Refusal], words: _Words, lang: str) -> None:
    if calc.key in file.spaces:
        return
    index = []
    for result in results:
        row = words.outcome(result, file.strings)
        sig = json.dumps(row)
        if sig not in file.seen:
            file.seen[sig] = len(file.outcomes)
            file.outcomes.append(row)
        index.append(file.seen[sig])
    file.spaces[calc.key] = {"fields": [_field_data(f, words, file.strings, lang) for f in calc.space.variable],
                             "index": index, "odds": _odds_field(calc, results)}


def _messages(lang: str) -> dict[str, str]:
    return {k: pgettext(lang, "site", k) for k in ("calc_out_of_range", "calc_needs_value", "calc_odds_caption",
                                                    "calc_chance_head", "calc_steps", "calc_unreadable")}


def _script(key: str, file: _File, lang: str) -> str:
    data = {"strings": file.strings.items, "outcomes": file.outcomes, "spaces": file.spaces, "words": _messages(lang)}
    body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    body = body.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")  # never closes a script
    return f"(window.KB_CALC=window.KB_CALC||{{}})[{json.dumps(key)}]={body};\n"


def calc_site(kb: "Linked", lang: str) -> CalcSite:
    """Every calculator of ``lang``'s pages: the forms of each page and the data scripts."""
    ctx = SiteContext(kb, {}, lang)
    out = CalcSite()
    files: dict[str, _File] = {}
    budgets = _budgets(kb)
    for entry in sorted(kb.entries.values(), key=lambda e: e.id):
        found = calculators(entry, kb.registry.get, functools.partial(_budget, budgets, entry.game))
        page = entry_path(entry)
        for n, calc in enumerate(found):
            results = _answers(kb, calc)
            words = _Words(calc, lang, ctx.names(entry.game))
            path = data_path(entry.game, calc.resolver.name)
            file = files.setdefault(path, _File())
            _add_space(file, calc, results, words, lang)
            start = calc.space.positions(calc.space.base)
            first = results[calc.space.number(start)] if start is not None else None
            out.forms.setdefault(page, []).append(form_html(calc, n, words, path, first, file))
    for path, file in files.items():
        out.files[path] = _script(path, file, lang)
        out.sizes[path] = len(out.files[path].encode())
    return out


def _attr(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _input(calc: Calculator, n: int, i: int, f: Field, words: _Words, var: int | None) -> str:
    fid = f"kb-calc-{n}-{i}"
    label = f'<label for="{fid}">{_attr(words.label(f))}</label>'
    value = _at(calc.space.base, f.path)
    common = f'id="{fid}" name="{_attr(f.name)}" data-kb-path="{_attr(json.dumps(list(f.path)))}"'
    if var is None:
        return (f'<div class="kb-calc-field kb-calc-fixed">{label}<input {common} type="text" readonly '
                f'value="{_attr(words.show(value))}" data-kb-fixed aria-describedby="{fid}-note">'
                f'<small id="{fid}-note">{_attr(pgettext(words.lang, "site", "calc_fixed"))}</small></div>')
    common += f' data-kb-field="{var}"'
    if f.kind in ("integer", "number"):
        return f'<div class="kb-calc-field">{label}{_number_input(common, fid, f, value, words.lang)}</div>'
    return f'<div class="kb-calc-field">{label}<select {common}>{_options(f, value, words)}</select></div>'


def _number_input(common: str, fid: str, f: Field, value: Any, lang: str) -> str:
    """A number field with its declared range (``min``, ``max``, ``step``); empty means "not given"."""
    holder = f' placeholder="{_attr(pgettext(lang, "site", "calc_not_given"))}"' if f.optional else ""
    mode = "numeric" if f.kind == "integer" and f.bounds["minimum"] >= 0 else "decimal"
    return (f'<input {common} type="number" inputmode="{mode}" min="{_attr(f.bounds["minimum"])}" '
            f'max="{_attr(f.bounds["maximum"])}" step="{_attr(f.bounds.get("multipleOf", 1))}" '
            f'value="{"" if value is None else _attr(value)}"{holder} aria-describedby="{fid}-range">'
            f'<small id="{fid}-range">{_attr(_range_words(f, lang))}</small>')


def _options(f: Field, value: Any, words: _Words) -> str:
    """A choice's options, valued by the JSON of each value (``null``: not given)."""
    out = []
    for v in f.values:
        text = pgettext(words.lang, "site", "calc_not_given") if v is None else words.show(v)
        chosen = " selected" if v == value and type(v) is type(value) else ""
        out.append(f'<option value="{_attr(json.dumps(v))}"{chosen}>{_attr(text)}</option>')
    return "".join(out)


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for step in path:
        data = data[step]
    return data


def form_html(calc: Calculator, n: int, words: _Words, path: str, first: Outcome | Refusal | None, file: _File) -> str:
    """The form of one calculator, filled with its example; the result as computed for it."""
    var = {id(f): i for i, f in enumerate(calc.space.variable)}
    fields = "".join(_input(calc, n, i, f, words, var.get(id(f))) for i, f in enumerate(calc.space.fields))
    result = _result_html(first, words) if first is not None else ""
    data = json.dumps(answer(first), ensure_ascii=False, separators=(",", ":"), sort_keys=True) if first is not None else "{}"
    return (f'<form class="kb-calc" data-kb-resolver="{_attr(calc.resolver.name)}" data-kb-space="{calc.key}" '
            f'data-kb-data="{_attr(posixpath.basename(path))}" data-kb-file="{_attr(path)}" novalidate '
            f'aria-label="{_attr(pgettext(words.lang, "site", "calc_title"))}">'
            f'<div class="kb-calc-fields">{fields}</div>'
            f'<div class="kb-calc-result" data-kb-outcome="{_attr(data)}" aria-live="polite">{result}</div></form>')


def _result_html(result: Outcome | Refusal, words: _Words) -> str:
    if isinstance(result, Refusal):
        reason = _sentence(result.error.step.say(words.lang, words.show)) if result.error is not None else None
        return f'<p class="kb-calc-refusal">{_attr(refusal_sentence(result.kind or "forbidden", reason, None, words.lang))}</p>'
    pairs = "".join(f"<dt>{_attr(words.word(k))}</dt><dd>{_attr(words.show(v))}</dd>"
                    for k, v in result.values.items() if v is not None)
    odds = words.chance(result)
    steps = "".join(f"<li>{_attr(_sentence(s.say(words.lang, words.show)))}</li>" for s in result.trace)
    return (f'<dl class="kb-calc-outputs">{pairs}</dl>'
            + (f'<p class="kb-calc-odds">{_attr(odds[0])}</p>' if odds else "")
            + (f'<p class="kb-calc-steps-head">{_attr(pgettext(words.lang, "site", "calc_steps"))}</p>'
               f'<ol class="kb-calc-steps">{steps}</ol>' if steps else ""))
