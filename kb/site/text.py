"""Entry -> terminal text, per language (what ``kb show`` prints): no Markdown, no HTML, no anchors.

It shows what the site page shows, worded by the same pieces (interface strings from the catalog,
facts, worked examples as paragraphs), as plain wrapped text; links become their shown words and
every "see also" and "referenced by" line carries the entry id beside its title, so a reader can
type ``kb show <id>`` next.
"""

from __future__ import annotations

import re
import textwrap
from typing import Callable, Iterable, Mapping

from kb.core.diagnostics import one_line
from kb.core.model import Entry, Text
from kb.examples.runner import ExampleResult
from kb.link.linker import Link
from kb.mechanics import Resolver
from kb.site.render import plain_text
from kb.view.entry import (CONTENT, Example, EntryView, Prose, Questions, Refs, Ruling, Section, Step, Steps, Table,
                           Value, entry_view, interface as label)
from kb.view.worked import ExampleRow, ExampleView, Names

__all__ = ["render_text", "text"]

WIDTH = 88


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False) or [""]


_ITEM = re.compile(r"^\s*(?:[-*+]|\d+[.)])\s+")
_EMPHASIS = re.compile(r"\*\*|__|(?<![\w*])\*(?=\S)|(?<=\S)\*(?![\w*])")


def _prose(source: str, show: Callable[[str], str], indent: str = "") -> list[str]:
    """Content prose as wrapped paragraphs; list items stay items; ``**bold**`` marks dropped."""
    out: list[str] = []
    for para in source.strip().split("\n\n"):
        lines = para.splitlines()
        if lines and all(ln.strip().startswith("|") for ln in lines):  # a table: one line per row, cells apart
            for ln in lines:
                cells = [c.strip() for c in ln.strip().strip("|").split("|")]
                if not all(re.fullmatch(r":?-+:?", c) for c in cells):
                    out += _wrap(_EMPHASIS.sub("", show("  ·  ".join(cells))), indent + "  ")
        elif any(_ITEM.match(ln) for ln in lines):
            items: list[str] = []
            for ln in lines:
                if _ITEM.match(ln) or not items:
                    items.append(ln.strip())
                else:
                    items[-1] += " " + ln.strip()
            for item in items:
                bullet = _ITEM.match(item)
                mark = bullet.group(0).strip() if bullet else ""
                body = _EMPHASIS.sub("", show(item[bullet.end():] if bullet else item))
                out += textwrap.wrap(body, WIDTH, initial_indent=f"{indent}  {mark} ",
                                     subsequent_indent=indent + " " * (len(mark) + 3), break_on_hyphens=False)
        else:
            out += _wrap(_EMPHASIS.sub("", show(para)), indent)
        out.append("")
    return out[:-1]


def _heading(title: str, char: str = "-") -> list[str]:
    title = one_line(title)
    return ["", title, char * len(title)]


def _steps(items: Iterable[Step], lang: str, show: Callable[[Value], str], depth: int = 0, prefix: str = "") -> list[str]:
    """A sequence's steps numbered as the rulebook numbers them: ``2.``, then ``2.1.`` for a nested step."""
    out: list[str] = []
    pad = "   " * depth
    n = 0
    for step in items:
        n += step.numbered
        number = f"{prefix}{n}"
        title = one_line(show(step.title))
        out.append(f"{pad}{number}. {title}" if step.numbered else f"{pad}{title}")
        inner = pad + "   " if step.numbered else pad
        if step.text:
            out += _wrap(show(step.text), inner)
        if step.allows:
            out += _wrap(f"{label('allows', lang)}: {', '.join(show(a) for a in step.allows)}", inner)
        out += _steps(step.steps, lang, show, depth + step.numbered, f"{number}." if step.numbered else prefix)
    return out


def render_text(
    entry: Entry,
    lang: str,
    titles: Callable[[str], Text | None],
    backlinks: Iterable[Link] = (),
    results: Mapping[str, ExampleResult] | None = None,
    resolvers: Callable[[str], Resolver | None] = lambda _name: None,
    names: Names = lambda _id: None,
    documents: Mapping[str, Text] | None = None,
) -> str:
    """The entry as plain text in ``lang``: its view (:func:`kb.view.entry.entry_view`, which says what the
    other arguments give) as :func:`text` shows it."""
    return text(entry_view(entry, lang, titles, backlinks, results, resolvers, names, documents), titles)


def text(view: EntryView, titles: Callable[[str], Text | None]) -> str:
    """An entry's view as plain wrapped text: title, meta, summary, each section, source."""
    shower = _Text(view.lang, titles, view.id)
    title = one_line(view.title)  # a name is one line: a line break in it would forge the lines below
    out = [title, "=" * len(title), one_line(" · ".join(view.meta)) + f"  [{view.id}]"]
    if view.summary:
        out += [""] + _wrap(shower.plain(view.summary), "  ")
    if view.also_called:
        out += [""] + _wrap(one_line(f"{label('also_called', view.lang)}: {', '.join(view.also_called)}"))
    for section in view.sections:
        out += shower.section(section)
    if view.source:
        src = view.source
        shown = f"“{src.title}”" if src.title else src.doc
        out += ["", one_line(f"{label('source', view.lang)}: {shown}, {label('section', view.lang)} “{src.section}”")]
    return "\n".join(out).rstrip() + "\n"


class _Text:
    """The text of each kind of section in one language."""

    def __init__(self, lang: str, titles: Callable[[str], Text | None], entry_id: str = "") -> None:
        self.lang, self.titles, self.entry_id = lang, titles, entry_id

    def plain(self, content: str) -> str:
        return _EMPHASIS.sub("", plain_text(content, self.lang, self.titles))

    def show(self, v: Value) -> str:
        return "".join(self.plain(s.text) if s.kind == CONTENT else s.text for s in v)

    def section(self, section: Section) -> list[str]:
        body, lang = section.body, self.lang
        if isinstance(body, Ruling):
            out = [line for key, v in (("question", body.question), ("answer", body.answer)) if v
                   for line in ["", *_wrap(f"{label(key, lang)}: {self.show(v)}")]]
            return out + [line for r in body.rows for line in _wrap(f"{self.show(r.key)}: {self.show(r.value)}")]
        if isinstance(body, Prose):
            return ([""] if section.key == "text" else _heading(section.heading)) + _prose(body.text, self.plain)
        out = _heading(section.heading)
        if isinstance(body, Table):
            return out + [line for r in body.rows for line in _wrap(f"{self.show(r.key)}: {self.show(r.value)}", "  ")]
        if isinstance(body, Steps):
            out += _steps(body.steps, lang, self.show)
            return out + ([""] + _wrap(f"{label('repeats', lang)}: {self.show(body.repeats)}") if body.repeats else [])
        if isinstance(body, Questions):
            return out + [f"  - {one_line(q)}" for q in body.items]
        if isinstance(body, Refs):
            return out + [f"  - {one_line(shown)}  [{target}]" for target, shown in body.items]
        for ex in body:
            out += self.example(ex)
        return out

    def example(self, ex: Example) -> list[str]:
        """As on the site: the situation as two columns, the numbered steps each with the rule it applies
        (its id beside the name when it is another entry's), the outcome and its odds set apart."""
        view, lang = ex.view, self.lang
        out = ["", f"* {one_line(view.title)}"]
        if view.note:
            out += _wrap(self.plain(view.note), "  ")
        if view.given:
            out += ["", f"  {label('situation', lang)}"] + _columns(view.given, "    ")
        out += self.worked_steps(view) + _outcome(view, lang)
        if view.verified is not None:
            out += ["", "  " + ("✔ " + label("verified", lang) if view.verified else "✘ " + label("failed", lang))]
        return out

    def worked_steps(self, view: ExampleView) -> list[str]:
        out = ["", f"  {label('how', self.lang)}"] if view.steps else []
        for i, s in enumerate(view.steps, 1):
            rule = s.rule_name if s.rule == self.entry_id else f"{s.rule_name} [{s.rule}]"
            out += textwrap.wrap(f"{s.text} → {rule}", WIDTH, initial_indent=f"    {i}. ",
                                 subsequent_indent=" " * (len(str(i)) + 6), break_on_hyphens=False)
        return out


def _outcome(view: ExampleView, lang: str) -> list[str]:
    """The outcome set apart by a rule down its left: the outputs as two columns, the refusal, the odds."""
    if not (view.result or view.outcome or view.odds):
        return []
    out = ["", f"  {label('result', lang)}"] + _columns(view.result, "  │ ")
    return out + [line for t in (view.outcome, view.odds) if t for line in _wrap(t, "  │ ")]


def _columns(items: Iterable[ExampleRow], indent: str) -> list[str]:
    """Label–value rows as two columns, the values lined up (a long label wraps the value below it); a
    part's label indented two spaces per level under the row that heads it."""
    rows = [("  " * r.depth + one_line(r.label), one_line(r.value)) for r in items]
    width = min(max((len(k) for k, _ in rows), default=0), 30)
    out: list[str] = []
    for key, val in rows:
        if len(key) > width:
            out += _wrap(key, indent)
            out += _wrap(val, indent + " " * (width + 2))
        else:
            out += textwrap.wrap(val, WIDTH, initial_indent=f"{indent}{key.ljust(width)}  ",
                                 subsequent_indent=indent + " " * (width + 2), break_on_hyphens=False) or [indent + key]
    return out
