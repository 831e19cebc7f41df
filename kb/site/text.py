"""Entry -> terminal text, per language (what ``kb show`` prints): no Markdown, no HTML, no anchors.

It shows what the site page shows, worded by the same pieces (interface strings from the catalog,
facts, worked examples as paragraphs), as plain wrapped text; links become their shown words and
every "see also" and "referenced by" line carries the entry id beside its title, so a reader can
type ``kb show <id>`` next.
"""

from __future__ import annotations

import html
import re
import textwrap
from typing import Any, Callable, Iterable, Mapping

from kb.core.locale import signed
from kb.core.model import Entry, Text
from kb.examples.runner import ExampleResult
from kb.link.linker import Link
from kb.mechanics import Resolver
from kb.site.render import facts, label, plain
from kb.site.worked import Names, example_view

__all__ = ["render_text"]

WIDTH = 88


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, initial_indent=indent, subsequent_indent=indent, break_on_hyphens=False) or [""]


_TAG = re.compile(r"<[^>]+>")
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
    return ["", title, char * len(title)]


def _steps(items: list[Mapping[str, Any]], lang: str, show: Callable[[str], str], names: Names,
           titles: Callable[[str], Text | None], depth: int = 0) -> list[str]:
    out: list[str] = []
    pad = "   " * depth
    for n, step in enumerate(items, 1):
        title = step.get("title")
        shown = Text(title["es"], title.get("en")).best(lang) if isinstance(title, Mapping) else str(step.get("id", n))
        out.append(f"{pad}{n}. {show(shown)}")
        text = step.get("text")
        if isinstance(text, Mapping) and "es" in text:
            out += _wrap(show(Text(text["es"], text.get("en")).best(lang)), pad + "   ")
        if step.get("allows"):
            allowed = [(names(str(a)) or titles(str(a)) or Text(str(a))).best(lang) for a in step["allows"]]
            out += _wrap(f"{label('allows', lang)}: {', '.join(allowed)}", pad + "   ")
        out += _steps(step.get("steps", []), lang, show, names, titles, depth + 1)
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
    """The entry as plain text in ``lang``: title, summary, text, facts, steps, notes, examples, links, source
    (the document's title from ``documents``, :func:`kb.site.place.source_titles`, else its file name)."""
    text = lambda s: _EMPHASIS.sub("", plain(s, lang, titles))  # noqa: E731
    data = entry.data
    title = entry.title.best(lang)
    game = names(entry.game)
    meta = [label(entry.kind, lang), game.best(lang) if game else entry.game]
    if entry.rule_type != "core":
        meta.append(label(entry.rule_type, lang))
    out = [title, "=" * len(title), " · ".join(meta) + f"  [{entry.id}]"]
    if entry.text("summary"):
        out += [""] + _wrap(text(entry.best("summary", lang)), "  ")
    if entry.also_called(lang):
        out += [""] + _wrap(f"{label('also_called', lang)}: {', '.join(entry.also_called(lang))}")
    ruling = data.get("ruling") if entry.kind == "ruling" else None
    if isinstance(ruling, dict):
        for key in ("question", "answer"):
            value = ruling.get(key)
            if isinstance(value, Mapping):
                out += [""] + _wrap(f"{label(key, lang)}: {text(Text(value['es'], value.get('en')).best(lang))}")
        for key in ("authority", "date"):
            value = ruling.get(key)
            if isinstance(value, Mapping):
                value = Text(value["es"], value.get("en")).best(lang)
            if value:
                out += _wrap(f"{label(key, lang)}: {value}")
    if entry.text("text"):
        out += [""] + _prose(entry.best("text", lang), text)
    rows = facts(entry, lang, text, names)
    if entry.term and entry.term.concept:
        concept = titles(entry.term.concept)
        rows.append((label("concept_link", lang), concept.best(lang) if concept else entry.term.concept))
        note = data["term"].get("concept_note")
        if isinstance(note, Mapping):
            rows.append((label("concept_note", lang), text(Text(note["es"], note.get("en")).best(lang))))
    if rows:
        out += _heading(label("facts", lang))
        for key, value in rows:
            out += _wrap(f"{key}: {html.unescape(_TAG.sub('', value))}", "  ")
    mods = data.get("modifiers")
    if isinstance(mods, list) and mods:
        out += _heading(label("modifiers", lang))
        for m in mods:
            when = m.get("when")
            when = text(Text(when["es"], when.get("en")).best(lang)) if isinstance(when, Mapping) else str(when)
            value = m.get("value")
            value = (text(Text(value["es"], value.get("en")).best(lang)) if isinstance(value, Mapping)
                     else signed(value, lang) if isinstance(value, (int, float)) else str(value))
            out += _wrap(f"{value}: {when}", "  ")
    seq = data.get("sequence") if entry.kind == "sequence" else None
    if isinstance(seq, dict):
        out += _heading(label("steps", lang)) + _steps(seq.get("steps", []), lang, text, names, lambda a: titles(f"{entry.game}.{a}"))
        repeats = seq.get("repeats")
        if isinstance(repeats, Mapping):
            out += [""] + _wrap(f"{label('repeats', lang)}: {text(Text(repeats['es'], repeats.get('en')).best(lang))}")
    if entry.text("notes"):
        out += _heading(label("notes", lang)) + _prose(entry.best("notes", lang), text)
    if entry.examples:
        out += _heading(label("examples", lang))
        for ex in entry.examples:
            view = example_view(entry, ex, (results or {}).get(ex.id), lang, resolvers(ex.mechanic), names)
            out += ["", f"* {view.title}"]
            if view.note:
                out += _wrap(text(view.note), "  ")
            for lead, body in (("situation", view.situation), ("how", " ".join(view.steps)), ("result", view.outcome)):
                if body:
                    out += _wrap(f"{label(lead, lang)}. {body}", "  ")
            if view.odds:
                out += _wrap(view.odds, "  ")
            if view.verified is not None:
                out.append("  " + ("✔ " + label("verified", lang) if view.verified else "✘ " + label("failed", lang)))
    if entry.questions(lang):
        out += _heading(label("player_questions", lang)) + [f"  - {q}" for q in entry.questions(lang)]
    links = [(label("see_also", lang), list(entry.see_also)),
             (label("referenced_by", lang), sorted({lk.source for lk in backlinks if lk.source != entry.id}))]
    for head, ids in links:
        if ids:
            out += _heading(head)
            for target in ids:
                found = titles(target)
                out.append(f"  - {found.best(lang) if found else target}  [{target}]")
    src = data.get("source")
    if isinstance(src, dict):
        doc = (documents or {}).get(str(src.get("doc")))
        shown = f"“{doc.best(lang)}”" if doc else str(src.get("doc"))
        out += ["", f"{label('source', lang)}: {shown}, {label('section', lang)} “{src.get('section')}”"]
    return "\n".join(out).rstrip() + "\n"
