"""Entry -> Markdown, per language. Pure functions: the caller supplies links and example results.

Text from the content is escaped (``<``, ``>``, ``&``, ``[``, ``]``, ``{``, ``}``) before any Markdown
is added, so nothing written in a YAML file can become HTML, an attribute list (``{: onfocus=...}``),
a script or a link the content did not declare. Values shown as code (example inputs and expected
errors) go through :func:`code`, which a backtick in the value cannot close early. The site then
passes each page's HTML through an allow-list sanitiser (:mod:`kb.site.sanitise`) as the last line.
"""

from __future__ import annotations

import html
import json
import re
from typing import Callable, Iterable, Iterator, Mapping

from kb.core.diagnostics import one_line
from kb.core.locale import pgettext
from kb.core.model import Entry, Text
from kb.core.validate import BLOCK_MARKUP, INDENTED_CODE
from kb.examples.runner import ExampleResult
from kb.link.linker import LINK, Link
from kb.mechanics import Resolver
from kb.view.anchors import ANSWER, QUESTION, SOURCE, SUMMARY, ITEM, anchor, block_anchor, chunks, entry_anchor, section_anchor
from kb.view.entry import (CONTENT, REF, EntryView, Prose, Questions, Refs, Row, Ruling, Section, Source, Step, Steps,
                           Table, Value, entry_view, forms, interface, shown_links)
from kb.view.worked import ExampleRow, ExampleView, Names

__all__ = ["label", "forms_markdown", "escape", "filled", "cell", "code", "ref", "inline", "plain_text", "render_entry", "markdown",
           "markdown_value", "steps", "stepper", "STEPPER_WORDS", "anchor", "entry_anchor", "example_markdown", "LinkTo"]

LinkTo = Callable[[str, "str | None"], "str | None"]
"""Maps (entry id, anchor) to a URL; ``None`` renders the link as plain text."""

def label(key: str, lang: str) -> str:
    """An interface word of entry pages in ``lang`` (:func:`kb.view.entry.interface`), escaped, since an
    unknown key (a fact's name) comes from content and is shown as it is."""
    return escape(interface(key, lang))


_MARKUP = str.maketrans({"[": "&#91;", "]": "&#93;", "{": "&#123;", "}": "&#125;"})
# In a name, a title or a value Markdown's emphasis and code marks are letters too ("7*7" is not "77").
_NAME = str.maketrans({"*": "&#42;", "_": "&#95;", "`": "&#96;", "\\": "&#92;"})
_UNSAFE_CODE = re.compile(r"[`{}\n\r\\]|^\s|\s$")
_CODE = str.maketrans({"`": "&#96;", "*": "&#42;", "_": "&#95;", "\\": "&#92;", "|": "&#124;"})


def escape(text: str) -> str:
    """Escape a name, title or value for Markdown: HTML, link brackets, attribute-list braces and the
    emphasis and code marks, so that it shows exactly as written; a line break becomes a space (a name sits on
    one line, a heading's or a list item's: a break would start a block of its own, ``!!!`` or ``#``)."""
    return one_line(_escape_prose(text).translate(_NAME))


_SLOT = re.compile(r"(\{\w+\})")


def filled(template: str, values: Mapping[str, str]) -> str:
    """A catalog's ``template`` as Markdown: its words escaped (:func:`escape`: a translator's ``*x*``, backticks,
    ``[x](url)`` or ``{: #id}`` are shown as typed), each ``{name}`` of ``values`` replaced by its value, which is
    the engine's Markdown (a code span, a link); any other ``{x}`` is text too."""
    parts = _SLOT.split(template)
    return "".join(values[p[1:-1]] if i % 2 and p[1:-1] in values else escape(p) for i, p in enumerate(parts))


def _escape_prose(text: str) -> str:
    """Escape content prose: HTML, link brackets and attribute-list braces; its Markdown emphasis
    (``**Duración.**``) stays the writer's."""
    return html.escape(str(text), quote=False).translate(_MARKUP)


def code(text: object) -> str:
    """``text`` shown as inline code, whatever it holds (a backtick in it cannot end the code early).

    Plain values become a Markdown code span (which escapes HTML itself); a value holding a backtick,
    a brace or a line break becomes ``<code>`` with every character that means something escaped.
    """
    text = str(text)
    if not _UNSAFE_CODE.search(text):
        return f"`{text}`"
    return f"<code>{escape(text).translate(_CODE)}</code>"


def _plain(_: str, __: str | None) -> None:
    return None


def ref(target: str, lang: str, titles: Callable[[str], Text | None], link_to: LinkTo = _plain,
        anchor: str | None = None, display: str | None = None) -> str:
    """A Markdown link to an entry, shown as ``display`` or the entry's title in ``lang``."""
    title = titles(target)
    shown = display or (title.best(lang) if title else target)
    url = link_to(target, anchor)
    return f"[{escape(shown)}]({url})" if url else escape(shown)


def inline(text: str, lang: str, titles: Callable[[str], Text | None], link_to: LinkTo = _plain) -> str:
    """Content text as Markdown: escaped, with ``{@kind id|display}`` links resolved; only its light Markdown
    (emphasis, lists, tables) stays Markdown (:func:`_as_typed`)."""
    out, last = [], 0
    for m in LINK.finditer(text):
        out.append(_escape_prose(text[last:m.start()]))
        out.append(ref(m["target"], lang, titles, link_to, m["anchor"], m["display"]))
        last = m.end()
    out.append(_escape_prose(text[last:]))
    return _as_typed("".join(out))


def _as_typed(markdown: str) -> str:
    """Block Markdown the content wrote (:data:`kb.core.validate.BLOCK_MARKUP`: a heading, an admonition, a fence,
    a rule) shown as the characters typed, its first three marks entities (a fence's other backticks would open code);
    an indentation that would make a code block dropped. ``kb check`` reports both (``block-markup``)."""
    markdown = INDENTED_CODE.sub(lambda m: m["before"], markdown)
    return BLOCK_MARKUP.sub(lambda m: m["lead"] + "".join(f"&#{ord(c)};" for c in m["mark"][:3]) + m["mark"][3:], markdown)


def plain_text(text: str, lang: str, titles: Callable[[str], Text | None]) -> str:
    """Content text as plain text (no markup): links become their shown words, whitespace is collapsed.
    (Not :func:`kb.core.plain.plain`, which makes data JSON-able.)"""
    return " ".join(shown_links(text, lang, titles).split())


def markdown_value(v: Value, lang: str, titles: Callable[[str], Text | None], link_to: LinkTo = _plain) -> str:
    """A value of the view as Markdown: content text with its links, literals escaped, refs as links."""
    out = []
    for span in v:
        if span.kind == CONTENT:
            out.append(inline(span.text, lang, titles, link_to))
        elif span.kind == REF and span.target:
            out.append(ref(span.target, lang, titles, link_to, span.anchor, span.text))
        else:
            out.append(f'<span lang="{span.lang}">{escape(span.text)}</span>' if span.lang else escape(span.text))
    return "".join(out)


def forms_markdown(by_lang: Mapping[str, Iterable[str]], lang: str) -> str:
    """A term's forms per language, ``español: a, b; inglés: c``; the other language's forms marked
    ``<span lang="en">`` (screen readers switch voice; the language lint knows they are meant)."""
    return markdown_value(forms(by_lang, lang), lang, lambda _id: None)


def _table(rows: Iterable[tuple[str, str]], head: tuple[str, str]) -> list[str]:
    """A two-column table with a real header row (a table without one reads as data with no meaning)."""
    rows = list(rows)
    if not rows:
        return []
    out = [f"| {cell(head[0])} | {cell(head[1])} |", "|---|---|"]
    out += [f"| {cell(a)} | {cell(b)} |" for a, b in rows]
    return out + [""]


def cell(text: str) -> str:
    """A Markdown table cell's text (already Markdown: escaped words, a link): on one line, a ``|`` in it a character,
    not the cell's end (a catalog's word in a table's head or cell, a content's value)."""
    return one_line(text).replace("|", "&#124;").strip()


def steps(items: Iterable[Step], lang: str, show: Callable[[Value], str], depth: int = 0,
          href: Callable[[str], str | None] | None = None) -> list[str]:
    """A sequence's steps (:func:`kb.view.entry.sequence_steps`) as an ordered Markdown list; each step
    carries the anchor ``step-<id>``; ``show`` marks a value up.

    A step marked ``numbered: false`` (the rulebook prints it without a number) is a paragraph between
    blank lines, outside the list, and is not counted; Markdown restarts the numbering after it, so such
    steps belong first or last.

    With ``href``, each step title links to ``href(step id)`` instead (the game page links to the
    steps of the sequence's own page).
    """
    out: list[str] = []
    n = 0
    for step in items:
        pad = "    " * depth
        title = one_line(show(step.title))
        url = href(step.id) if href else None
        shown = f"[{title}]({url})" if url else title
        number = f' data-kb-number="{html.escape(step.number)}"' if step.number else ""
        mark = "" if href else f'<span id="{anchor("step", step.id)}"{number}></span>'
        n += step.numbered
        body = f"{pad}    " if step.numbered else pad  # an unnumbered step is a paragraph of its own, not an item
        lines = [f"{pad}{n}. {mark}**{shown}**" if step.numbered else f"{pad}{mark}**{shown}**"]
        if step.text:
            lines.append(body + show(step.text).strip().replace("\n", f"\n{body}"))
        if step.allows:
            lines.append(f"{body}*{label('allows', lang)}:* {', '.join(show(a) for a in step.allows)}")
        block = "  \n".join(lines)  # a line break (two spaces) between title, text and actions
        out += [block] if step.numbered else ["", block, ""]
        out += steps(step.steps, lang, show, depth + step.numbered, href)
    return out


STEPPER_WORDS = ("stepper", "previous", "next", "step_number", "step_position")
"""The stepper's interface words (``msgctxt "site"``), handed to ``kb-stepper.js`` in ``data-kb-words``."""


def stepper(sequence_id: str, lang: str, lines: list[str]) -> list[str]:
    """A sequence's steps (``lines``, from :func:`steps`) inside the stepper's element,
    ``data-kb-stepper="<sequence id>"``: ``kb-stepper.js`` shows them one at a time with next/back buttons;
    without scripts the list reads as it is. Each step's mark carries its number (``data-kb-number``)."""
    words = json.dumps({k: pgettext(lang, "site", k) for k in STEPPER_WORDS}, ensure_ascii=False)
    return [f'<div class="kb-stepper" data-kb-stepper="{html.escape(sequence_id)}" '
            f'data-kb-words="{html.escape(words)}" markdown="1">', "", *lines, "", "</div>"]


_REFUSAL_BOX = {"forbidden": "failure", "unstated": "question", "elsewhere": "info", "impossible": "warning",
                "incomplete": "note"}
"""The admonition that sets a refusal apart, by its kind of "no"."""


def example_markdown(view: ExampleView, anchor_id: str, lang: str, fmt: Callable[[str], str],
                     cite: Callable[[str, str | None, str], str] = lambda _t, _a, shown: escape(shown)) -> list[str]:
    """A worked example as a rulebook prints it: the situation as a small table, the steps as a numbered
    list each citing its rule (``cite(entry id, step id, shown)`` makes the link), the outcome set apart
    in a box with the odds beside it. The whole example is one block (``kb-example``): the page's ¶
    numbers count the example, not each of its lines."""
    out = ['<div class="kb-example" markdown>', "", f"### {escape(view.title)} {{#{anchor_id}}}", ""]
    if view.note:
        out += [fmt(view.note), ""]
    out += _example_table(view.given, (label("situation", lang), label("value", lang)), label("situation", lang))
    out += _example_steps(view, lang, cite) + _example_outcome(view, lang)
    if view.verified is not None:
        out += [f"*{'✔ ' + label('verified', lang) if view.verified else '✘ ' + label('failed', lang)}*", ""]
    return out + ["</div>", ""]


def _example_table(rows: Iterable[ExampleRow], head: tuple[str, str], caption: str) -> list[str]:
    """A worked example's table as HTML (``head`` and ``caption`` already escaped): a caption a screen reader names
    it by, each row's label a row header (Markdown's tables have neither; audit-a11y L6). On one line per row, no
    blank line: a raw block, Markdown leaves it as it is."""
    cells = list(_cells(rows))
    if not cells:
        return []
    out = ["<table>", f'<caption class="kb-sr">{caption}</caption>',
           f'<thead><tr><th scope="col">{head[0]}</th><th scope="col">{head[1]}</th></tr></thead>', "<tbody>"]
    out += [f'<tr><th scope="row">{name}</th><td>{value}</td></tr>' for name, value in cells]
    return out + ["</tbody>", "</table>", ""]


def _cells(rows: Iterable[ExampleRow]) -> Iterator[tuple[str, str]]:
    """The rows' cells, escaped; a part's label indented one em per level under the row that heads it, and named
    in full for a screen reader (the rows that head it, hidden from the eye: «Defensores, Mago, Vida»)."""
    above: list[str] = []
    for r in rows:
        del above[r.depth:]
        path = f'<span class="kb-sr">{", ".join(above)}, </span>' if above else ""
        yield "&emsp;" * r.depth + path + escape(r.label), escape(r.value)
        above.append(escape(r.label))


def _example_steps(view: ExampleView, lang: str, cite: Callable[[str, str | None, str], str]) -> list[str]:
    """The steps as a numbered list, each ending in ``→ rule`` (nothing when ``cite`` gives nothing: the page's own rule)."""
    if not view.steps:
        return []
    cited = [(s, cite(s.rule, s.anchor, s.rule_name)) for s in view.steps]
    return [f"**{label('how', lang)}**", ""] + [
        f'{i}. {escape(s.text)}' + (f' <span class="kb-cite">→ {shown}</span>' if shown else "")
        for i, (s, shown) in enumerate(cited, 1)] + [""]


def _example_outcome(view: ExampleView, lang: str) -> list[str]:
    """The outcome in a box of its own (by the kind of "no" on a refusal): the outputs' table, the
    refusal's sentence, the odds."""
    body = _example_table(view.result, (label("field", lang), label("value", lang)), label("result", lang))
    body += [escape(view.outcome), ""] if view.outcome else []
    body += [f"**{escape(view.odds)}**", ""] if view.odds else []
    if not body:
        return []
    if view.verified is False:  # the resolver's answer, not the example's claim: never the green box of one that holds
        return [f'!!! failure "{label("result_failed", lang)}"', ""] + [f"    {line}" if line else "" for line in body]
    box = _REFUSAL_BOX.get(view.refusal or "", "success")
    return [f'!!! {box} "{label("result", lang)}"', ""] + [f"    {line}" if line else "" for line in body]


def render_entry(
    entry: Entry,
    lang: str,
    titles: Callable[[str], Text | None],
    backlinks: Iterable[Link] = (),
    results: Mapping[str, ExampleResult] | None = None,
    link_to: LinkTo = _plain,
    heading: int = 1,
    resolvers: Callable[[str], Resolver | None] = lambda _name: None,
    names: Names = lambda _id: None,
    documents: Mapping[str, Text] | None = None,
    show_id: bool = True,
) -> str:
    """The entry as Markdown in ``lang``: its view (:func:`kb.view.entry.entry_view`, which says what the
    other arguments give) marked up by :func:`markdown`; ``show_id=False`` leaves the id out of the meta line
    (the site's page shows it once, in its citation line)."""
    return markdown(entry_view(entry, lang, titles, backlinks, results, resolvers, names, documents), titles, link_to, heading,
                    show_id)


META = "{: .kb-meta }"
"""The class of the lines that name the entry (its kind and game, its other names): the glossary tips skip them, so
a term's first mention is in the rules' text, not in a game's name ("Aliens vs Predator") or the entry's own names."""


def markdown(view: EntryView, titles: Callable[[str], Text | None], link_to: LinkTo = _plain, heading: int = 1,
             show_id: bool = True) -> str:
    """An entry's view as Markdown: title, meta, summary, then each section, then the source."""
    page = _Page(view.lang, titles, link_to, "#" * heading, view.id)
    lang = view.lang
    out = [f"{page.h} {escape(view.title)} {{#{entry_anchor(view.id)}}}", "",
           f"*{' · '.join(escape(m) for m in view.meta)}*" + (f" · {code(view.id)}" if show_id else ""), META, ""]
    if view.also_called:
        out += [f"*{label('also_called', lang)}:* {escape(', '.join(view.also_called))}", META, ""]
    if view.summary:
        out += [f"> {line}".rstrip() for line in page.fmt(view.summary).rstrip().split("\n")] + [f"> {_id(SUMMARY)}", ""]
    for section in view.sections:
        out += page.section(section)
    if view.source:
        out += page.source(view.source)
    return "\n".join(out).rstrip() + "\n"


def _id(name: str) -> str:
    """An attribute list giving the block it ends the id ``name`` (a line of its own, under the block)."""
    return f"{{: #{name} }}"


class _Page:
    """The Markdown of each kind of section, for one page (its language, links and heading level)."""

    def __init__(self, lang: str, titles: Callable[[str], Text | None], link_to: LinkTo, h: str, entry_id: str) -> None:
        self.lang, self.titles, self.link_to, self.h, self.id = lang, titles, link_to, h, entry_id

    def fmt(self, text: str) -> str:
        return inline(text, self.lang, self.titles, self.link_to)

    def show(self, v: Value) -> str:
        return markdown_value(v, self.lang, self.titles, self.link_to)

    def table(self, body: Table | tuple[Row, ...], head: tuple[str, str]) -> list[str]:
        rows = body.rows if isinstance(body, Table) else body
        return _table(((self.show(r.key), self.show(r.value)) for r in rows), (escape(head[0]), escape(head[1])))

    def section(self, section: Section) -> list[str]:
        body, lang = section.body, self.lang
        if isinstance(body, Ruling):
            return ([f"**{label('question', lang)}:** {self.show(body.question).rstrip()}", _id(QUESTION), "",
                     f"**{label('answer', lang)}:** {self.show(body.answer).rstrip()}", _id(ANSWER), ""]
                    + self.table(body.rows, (interface("field", lang), interface("value", lang))))
        if isinstance(body, Prose) and section.key == "notes":
            return [f"!!! note \"{escape(section.heading)}\"", "", "    " + self.prose(section.key, body.text).replace("\n", "\n    "), ""]
        if isinstance(body, Prose):
            return [self.prose(section.key, body.text), ""]
        out = [f"{self.h}# {escape(section.heading)} {{#{section_anchor(section.key)}}}", ""]
        if isinstance(body, Table):
            return out + self.table(body, body.head)
        if isinstance(body, Steps):
            out += stepper(self.id, lang, steps(body.steps, lang, self.show)) + [""]
            return out + ([f"*{label('repeats', lang)}:* {self.show(body.repeats)}", ""] if body.repeats else [])
        if isinstance(body, Questions):
            return out + [f"- {escape(q)}" for q in body.items] + [""]  # players' own words, not translations: no ids
        if isinstance(body, Refs):
            return out + [f"- {self.link(target, shown)}" for target, shown in body.items] + [""]
        for ex in body:
            out += example_markdown(ex.view, anchor("example", ex.id), lang, self.fmt, self.cite)
        return out

    def prose(self, key: str, text: str) -> str:
        """Content text, each of its blocks (:func:`kb.view.anchors.blocks`) with its id: a paragraph or a
        list item gets an attribute list on a line under it, a table a ``<div>`` around it."""
        out, n = [], 0
        for chunk in chunks(text):
            shown = []
            for block in chunk:
                n += 1
                if block.lstrip().startswith("|"):
                    shown.append(f'<div id="{block_anchor(key, n)}" markdown="1">\n\n{self.fmt(block)}\n\n</div>')
                    continue
                marker = ITEM.match(block)
                shown.append(f"{self.fmt(block).rstrip()}\n{' ' * (len(marker.group(0)) if marker else 0)}{_id(block_anchor(key, n))}")
            out.append("\n".join(shown))
        return "\n\n".join(out)

    def cite(self, target: str, step: str | None, shown: str) -> str:
        """A worked example's step citing its rule: nothing for the entry the page is (its text or one of its sequence's
        steps: a link to this page's top sent a stray tap there, and the step's sentence names its step), else a link
        to the other entry or to its sequence's step."""
        if target == self.id:
            return ""
        return ref(target, self.lang, self.titles, self.link_to, step, shown)

    def link(self, target: str, shown: str) -> str:
        url = self.link_to(target, None)
        return f"[{escape(shown)}]({url})" if url else escape(shown)

    def source(self, src: Source) -> list[str]:
        section = escape(src.section)
        if src.section_lang:
            section = f'<span lang="{src.section_lang}">{section}</span>'
        shown = f"“{escape(src.title)}”" if src.title else code(src.doc)
        return [f"*{label('source', self.lang)}: {shown}, {label('section', self.lang)} “{section}”*", _id(SOURCE), ""]
