"""How a calculator's answers read (issue 30): its fields' labels, an outcome's values, steps and odds, a refusal,
in one language. Used by the build (:mod:`kb.site.calc`, every combination of a small space) and, unchanged, by
the page's Python (:mod:`kb.site.calc_py`, under Pyodide, for the spaces no build enumerates), so both word an
answer alike. Imports nothing but the engine's mechanics, locale and worked-example wording (no site, no cache).
"""

from __future__ import annotations

import json
from typing import Any, Callable, Mapping

from kb.core.diagnostics import visible
from kb.core.locale import fill, percent, pgettext
from kb.core.model import Text
from kb.mechanics import Outcome, Resolver
from kb.mechanics.space import FAILED, Field, Refusal, answer
from kb.view.worked import refusal_sentence, sentence, value_shower

__all__ = ["Strings", "Words", "interned", "said", "sentence"]


def said(found: Any) -> Any:
    """A name as the cache records it."""
    if found is None:
        return None
    return [found.es, found.en] if isinstance(found, Text) else str(found)


class Words:
    """How one calculator's values, labels and answers read in one language (the names it looked up are in ``seen``)."""

    def __init__(self, res: Resolver, own_names: Mapping[str, Any], lang: str, names: Callable[[str], Any],
                 foreign: Mapping[str, list[str]] | None = None) -> None:
        self.lang, self.res, self.names = lang, res, names
        self.foreign: Mapping[str, list[str]] = foreign or {}
        """Words of another language the answers may show, by language (:func:`kb.site.calc.foreign_words`)."""
        self.seen: dict[str, Any] = {}

        def find(value: str) -> Any:
            if value in own_names:
                return Text(own_names[value]["es"], own_names[value].get("en"))
            return names(value)

        def noted(value: str) -> Any:
            found = find(value)
            self.seen[value] = said(found)
            return found

        self.find = find
        self.show = value_shower(lang, self.res, noted)
        self._steps: dict[str, str] = {}

    def step(self, s: Any) -> str:
        """A step as a sentence (the same step, with the same values, is worded once)."""
        key = json.dumps([s.templates, s.text.es if s.templates is None else None, s.values], sort_keys=True, default=repr)
        if key not in self._steps:
            self._steps[key] = sentence(s.say(self.lang, self.show))
        return self._steps[key]

    def word(self, key: str) -> str:
        label = self.res.label(key, self.lang)
        if label:
            return label
        found = self.find(key)
        self.seen[key] = said(found)
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
        p, event = ch.probability, visible(ch.event.best(self.lang))  # a resolver's own text (see sentence)
        fraction = f"{p.numerator}/{p.denominator}"
        if p.denominator == 1:
            line = fill(pgettext(self.lang, "site", "calc_chance_whole"), {"event": event, "percent": percent(p, self.lang)})
            return line, event, percent(p, self.lang)
        line = fill(pgettext(self.lang, "site", "calc_chance"),
                    {"event": event, "fraction": fraction, "percent": percent(p, self.lang)})
        return line, event, f"{fraction} ≈ {percent(p, self.lang)}"

    def outcome(self, result: Outcome | Refusal) -> list[Any]:
        """One answer as words: [answer JSON, steps, [label, value] pairs, odds (sentence, event, short), refusal]."""
        data = json.dumps(answer(result), ensure_ascii=False, separators=(",", ":"), sort_keys=True)
        if isinstance(result, Refusal) and result.code == FAILED:  # the resolver's fault, never a rule's verdict
            return [data, [], [], None, pgettext(self.lang, "site", "calc_failed")]
        if isinstance(result, Refusal):
            reason = sentence(result.error.step.say(self.lang, self.show)) if result.error is not None else None
            return [data, [], [], None, refusal_sentence(result.kind or "forbidden", reason, None, self.lang)]
        steps = [self.step(s) for s in result.trace]
        pairs = [[self.word(k), self.show(v)] for k, v in result.values.items() if v is not None]
        odds = self.chance(result)
        return [data, steps, pairs, list(odds) if odds else None, None]


class Strings:
    """One table of distinct strings per data file."""

    def __init__(self) -> None:
        self.items: list[str] = []
        self._at: dict[str, int] = {}

    def __call__(self, text: str) -> int:
        if text not in self._at:
            self._at[text] = len(self.items)
            self.items.append(text)
        return self._at[text]


def interned(row: list[Any], strings: Strings) -> list[Any]:
    data, steps, pairs, odds, refusal = row
    return [strings(data), [strings(s) for s in steps], [[strings(a), strings(b)] for a, b in pairs],
            [strings(x) for x in odds] if odds else None, strings(refusal) if refusal is not None else None]
