"""Entry -> Markdown, per language. Pure functions: the caller supplies links and example results.

Text from the content is escaped (``<``, ``>``, ``&``, ``[``, ``]``, ``{``, ``}``) before any Markdown
is added, so nothing written in a YAML file can become HTML, an attribute list (``{: onfocus=...}``),
a script or a link the content did not declare. Values shown as code (example inputs and expected
errors) go through :func:`code`, which a backtick in the value cannot close early. The site then
passes each page's HTML through an allow-list sanitiser (:mod:`kb.site.sanitise`) as the last line.
"""

from __future__ import annotations

import html
import re
from typing import Any, Callable, Iterable, Mapping

from kb.core.locale import LANGS, gettext, pgettext, signed
from kb.core.model import Entry, Text
from kb.examples.runner import ExampleResult
from kb.link.linker import LINK, Link
from kb.mechanics import Resolver
from kb.site.worked import ExampleView, Names, example_view

__all__ = ["label", "forms_markdown", "escape", "code", "ref", "inline", "plain", "render_entry", "facts", "steps",
           "action_ref", "anchor",
           "entry_anchor", "LinkTo"]

LinkTo = Callable[[str, "str | None"], "str | None"]
"""Maps (entry id, anchor) to a URL; ``None`` renders the link as plain text."""

def label(key: str, lang: str) -> str:
    """An interface string of entry pages in ``lang``, from the gettext catalog (``msgctxt "label"``); escaped,
    since an unknown key (a fact's name) comes from content and is shown as it is."""
    return escape(pgettext(lang if lang in LANGS else "en", "label", str(key)))


_MARKUP = str.maketrans({"[": "&#91;", "]": "&#93;", "{": "&#123;", "}": "&#125;"})
_UNSAFE_CODE = re.compile(r"[`{}\n\r\\]|^\s|\s$")
_CODE = str.maketrans({"`": "&#96;", "*": "&#42;", "_": "&#95;", "\\": "&#92;", "|": "&#124;"})


def escape(text: str) -> str:
    """Escape HTML, Markdown link brackets and attribute-list braces in content text."""
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


def anchor(prefix: str, item_id: str) -> str:
    """The HTML id of a step or example: ``step-upkeep``, ``example-tie`` (only ``[a-z0-9-]`` kept)."""
    return f"{prefix}-" + re.sub(r"[^a-z0-9-]+", "-", str(item_id).lower())


def entry_anchor(entry_id: str) -> str:
    """The HTML id of an entry's heading: ``malifaux.engaged`` -> ``malifaux-engaged``."""
    return re.sub(r"[^a-z0-9-]+", "-", entry_id.lower())


def ref(target: str, lang: str, titles: Callable[[str], Text | None], link_to: LinkTo = _plain,
        anchor: str | None = None, display: str | None = None) -> str:
    """A Markdown link to an entry, shown as ``display`` or the entry's title in ``lang``."""
    title = titles(target)
    shown = display or (title.best(lang) if title else target)
    url = link_to(target, anchor)
    return f"[{escape(shown)}]({url})" if url else escape(shown)


def inline(text: str, lang: str, titles: Callable[[str], Text | None], link_to: LinkTo = _plain) -> str:
    """Content text as Markdown: escaped, with ``{@kind id|display}`` links resolved."""
    out, last = [], 0
    for m in LINK.finditer(text):
        out.append(escape(text[last:m.start()]))
        out.append(ref(m["target"], lang, titles, link_to, m["anchor"], m["display"]))
        last = m.end()
    out.append(escape(text[last:]))
    return "".join(out)


def plain(text: str, lang: str, titles: Callable[[str], Text | None]) -> str:
    """Content text as plain text (no markup): links become their shown words, whitespace is collapsed."""
    def shown(m: re.Match[str]) -> str:
        title = titles(m["target"])
        return m["display"] or (title.best(lang) if title else m["target"])

    return " ".join(LINK.sub(shown, text).split())


def _no_names(_: str) -> None:
    return None


def _value(value: Any, lang: str, fmt: Callable[[str], str], names: Names = _no_names) -> str:
    if isinstance(value, bool):
        return gettext(lang, "yes" if value else "no")
    if isinstance(value, dict) and "es" in value:
        es, en = value.get("es"), value.get("en")
        return fmt(Text(es if isinstance(es, str) else _show(es), en if isinstance(en, str) else None).best(lang))
    if isinstance(value, list):
        return ", ".join(_value(v, lang, fmt, names) for v in value)
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return signed(value, lang) if value < 0 else signed(value, lang).lstrip("+")
    name = names(str(value))
    return escape(name.best(lang) if name else str(value))


def facts(entry: Entry, lang: str, fmt: Callable[[str], str], names: Names = _no_names) -> list[tuple[str, str]]:
    """Kind-specific facts as (label, Markdown value) rows; ids among the values shown by their names."""
    block = entry.data.get(entry.kind)
    rows: list[tuple[str, str]] = []
    if not isinstance(block, dict) or entry.kind == "sequence":
        return rows
    for key, value in block.items():
        if key in ("concept", "concept_note", "forbidden", "do_not_translate"):
            continue
        if key == "costs" and isinstance(value, list):
            value = [f"{_value(c.get('base'), lang, fmt)}: {_value(c.get('cost'), lang, fmt)}" for c in value
                     if isinstance(c, dict)]
            rows.append((label(key, lang), ", ".join(value)))
        elif key in ("forms", "abbreviations") and isinstance(value, dict):
            rows.append((label(key, lang), forms_markdown(value, lang)))
        elif key == "phase" and isinstance(value, str) and "{" not in value and "}" not in value:
            step = names(value) if "#" in value else None  # the step's own title, not the sequence's
            shown = step.best(lang) if step else ""
            shown = f"|{shown}" if shown and not set(shown) & set("{}|") else ""
            rows.append((label(key, lang), fmt(f"{{@sequence {value}{shown}}}")))  # a link to the step
        elif key == "movement_cost_change" and isinstance(value, int):
            rows.append((label(key, lang), signed(value, lang)))
        else:
            rows.append((label(key, lang), _value(value, lang, fmt, names)))
    return rows


def forms_markdown(forms: Mapping[str, Iterable[str]], lang: str) -> str:
    """A term's forms per language, ``español: a, b; inglés: c``; the other language's forms marked
    ``<span lang="en">`` (screen readers switch voice; the language lint knows they are meant)."""
    parts = []
    for lg, words in forms.items():
        words = [escape(str(w)) for w in (words if isinstance(words, (list, tuple)) else ())]
        if not words:
            continue
        shown = ", ".join(words)
        if lg != lang and re.fullmatch(r"[a-z]{2}", str(lg)):
            shown = f'<span lang="{lg}">{shown}</span>'
        parts.append(f"{label('lang_' + str(lg), lang)}: {shown}")
    return "; ".join(parts)


def _table(rows: Iterable[tuple[str, str]], head: tuple[str, str]) -> list[str]:
    """A two-column table with a real header row (a table without one reads as data with no meaning)."""
    rows = list(rows)
    if not rows:
        return []
    out = [f"| {head[0]} | {head[1]} |", "|---|---|"]
    out += [f"| {a} | {b.replace('|', '&#124;').replace(chr(10), ' ')} |" for a, b in rows]
    return out + [""]


def steps(items: list[Mapping[str, Any]], lang: str, fmt: Callable[[str], str], depth: int = 0,
          href: Callable[[str], str | None] | None = None, action: Callable[[str], str] = escape) -> list[str]:
    """A sequence's steps as an ordered Markdown list; each step carries the anchor ``step-<id>``.

    A step marked ``numbered: false`` (the rulebook prints it without a number) is a paragraph between
    blank lines, outside the list, and is not counted; Markdown restarts the numbering after it, so such
    steps belong first or last.

    With ``href``, each step title links to ``href(step id)`` instead (the game page links to the
    steps of the sequence's own page). ``action`` shows each allowed action (a link, when it can).
    """
    out: list[str] = []
    n = 0
    for i, step in enumerate(items if isinstance(items, list) else [], 1):
        if not isinstance(step, dict):
            continue  # the schema reports it
        pad = "    " * depth
        title = _value(step.get("title", {}), lang, fmt)
        sid = str(step.get("id", i))
        url = href(sid) if href else None
        shown = f"[{title}]({url})" if url else title
        mark = "" if href else f'<span id="{anchor("step", sid)}"></span>'
        numbered = step.get("numbered", True) is not False
        n += numbered
        body = f"{pad}    " if numbered else pad  # an unnumbered step is a paragraph of its own, not an item
        lines = [f"{pad}{n}. {mark}**{shown}**" if numbered else f"{pad}{mark}**{shown}**"]
        if step.get("text"):
            text = _value(step["text"], lang, fmt).strip().replace("\n", f"\n{body}")
            lines.append(f"{body}{text}")
        if isinstance(step.get("allows"), list) and step["allows"]:
            lines.append(f"{body}*{label('allows', lang)}:* {', '.join(action(str(a)) for a in step['allows'])}")
        block = "  \n".join(lines)  # a line break (two spaces) between title, text and actions
        out += [block] if numbered else ["", block, ""]
        out += steps(step.get("steps", []), lang, fmt, depth + numbered, href, action)
    return out


def action_ref(game: str, lang: str, titles: Callable[[str], Text | None], link_to: LinkTo = _plain,
               names: Names = _no_names) -> Callable[[str], str]:
    """Shows an action named in a step's ``allows`` as a link to ``<game>.<name>`` when that entry exists,
    else by its name in ``names`` (the game's ``names:``)."""

    def show(name: str) -> str:
        if titles(f"{game}.{name}"):
            return ref(f"{game}.{name}", lang, titles, link_to)
        found = names(name)
        return escape(found.best(lang) if found else name)

    return show


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {_show(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    return str(value).lower() if isinstance(value, bool) else str(value)


def example_markdown(view: ExampleView, anchor_id: str, lang: str, fmt: Callable[[str], str]) -> list[str]:
    """A worked example as Markdown: the situation, the steps and the outcome as short paragraphs."""
    out = [f"### {escape(view.title)} {{#{anchor_id}}}", ""]
    if view.note:
        out += [fmt(view.note), ""]
    if view.situation:
        out += [f"**{label('situation', lang)}.** {escape(view.situation)}", ""]
    if view.steps:
        out += [f"**{label('how', lang)}.** {escape(' '.join(view.steps))}", ""]
    if view.outcome:
        out += [f"**{label('result', lang)}.** {escape(view.outcome)}", ""]
    if view.odds:
        out += [escape(view.odds), ""]
    if view.verified is not None:
        out += [f"*{'✔ ' + label('verified', lang) if view.verified else '✘ ' + label('failed', lang)}*", ""]
    return out


def render_entry(
    entry: Entry,
    lang: str,
    titles: Callable[[str], Text | None],
    backlinks: Iterable[Link] = (),
    results: Mapping[str, ExampleResult] | None = None,
    link_to: LinkTo = _plain,
    heading: int = 1,
    resolvers: Callable[[str], Resolver | None] = lambda _name: None,
    names: Names = _no_names,
    documents: Mapping[str, Text] | None = None,
) -> str:
    """The entry as Markdown in ``lang``: title, summary, text, facts, steps, examples, links, source.

    ``resolvers`` gives each example's resolver (for the labels of its inputs, outputs and values);
    ``names`` gives the names of the ids the entry's facts and examples mention (the game's too);
    ``documents`` the titles of the source documents by file name (``sources:`` in ``game.yaml``).
    """
    fmt = lambda s: inline(s, lang, titles, link_to)  # noqa: E731
    h = "#" * heading
    data = entry.data
    out = [f"{h} {escape(entry.title.best(lang))} {{#{entry_anchor(entry.id)}}}", ""]
    game = names(entry.game)
    meta = [label(entry.kind, lang), escape(game.best(lang) if game else entry.game)]
    if entry.rule_type != "core":
        meta.append(label(entry.rule_type, lang))
    out += [f"*{' · '.join(meta)}* · {code(entry.id)}", ""]
    if entry.also_called(lang):
        out += [f"*{label('also_called', lang)}:* {escape(', '.join(entry.also_called(lang)))}", ""]
    if entry.text("summary"):
        out += [f"> {fmt(entry.best('summary', lang))}", ""]
    ruling = data.get("ruling") if entry.kind == "ruling" else None
    if isinstance(ruling, dict):
        out += [f"**{label('question', lang)}:** {_value(ruling.get('question'), lang, fmt)}", "",
                f"**{label('answer', lang)}:** {_value(ruling.get('answer'), lang, fmt)}", ""]
        extra = [(label(k, lang), _value(ruling[k], lang, fmt)) for k in ("authority", "date") if k in ruling]
        out += _table(extra, (label("field", lang), label("value", lang)))
    if entry.text("text"):
        out += [fmt(entry.best("text", lang)), ""]
    rows = facts(entry, lang, fmt, names)
    if entry.term and entry.term.concept:
        rows.append((label("concept_link", lang), ref(entry.term.concept, lang, titles, link_to)))
        note = data["term"].get("concept_note")
        if isinstance(note, dict):
            rows.append((label("concept_note", lang), _value(note, lang, fmt)))
    if rows:
        out += [f"{h}# {label('facts', lang)}", ""] + _table(rows, (label("field", lang), label("value", lang)))
    mods = data.get("modifiers")
    if isinstance(mods, list) and mods:
        out += [f"{h}# {label('modifiers', lang)}", ""]
        out += _table(((_value(m.get("value"), lang, fmt), _value(m.get("when"), lang, fmt)) for m in mods
                       if isinstance(m, dict)),
                      (label("value", lang), label("when", lang)))
    seq = data.get("sequence") if entry.kind == "sequence" else None
    if isinstance(seq, dict):
        out += [f"{h}# {label('steps', lang)}", ""] + steps(seq.get("steps", []), lang, fmt,
                                                               action=action_ref(entry.game, lang, titles, link_to, names)) + [""]
        if seq.get("repeats"):
            out += [f"*{label('repeats', lang)}:* {_value(seq['repeats'], lang, fmt)}", ""]
    if entry.text("notes"):
        out += [f"!!! note \"{label('notes', lang)}\"", "", "    " + fmt(entry.best("notes", lang)).replace("\n", "\n    "), ""]
    if entry.examples:
        out += [f"{h}# {label('examples', lang)}", ""]
        for ex in entry.examples:
            view = example_view(entry, ex, (results or {}).get(ex.id), lang, resolvers(ex.mechanic), names)
            out += example_markdown(view, anchor("example", ex.id), lang, fmt)
    if entry.questions(lang):
        out += [f"{h}# {label('player_questions', lang)}", ""] + [f"- {escape(q)}" for q in entry.questions(lang)] + [""]
    if entry.see_also:
        out += [f"{h}# {label('see_also', lang)}", ""]
        out += [f"- {ref(t, lang, titles, link_to)}" for t in entry.see_also] + [""]
    sources = sorted({lk.source for lk in backlinks if lk.source != entry.id})
    if sources:
        out += [f"{h}# {label('referenced_by', lang)}", ""]
        out += [f"- {ref(s, lang, titles, link_to)}" for s in sources] + [""]
    src = data.get("source")
    if isinstance(src, dict):
        section = escape(str(src.get("section")))
        if lang != "es":  # section titles are the Spanish source's own headings
            section = f'<span lang="es">{section}</span>'
        doc = (documents or {}).get(str(src.get("doc")))  # the document's title from game.yaml, not its file name
        shown = f"“{escape(doc.best(lang))}”" if doc else code(src.get("doc"))
        out += [f"*{label('source', lang)}: {shown}, {label('section', lang)} “{section}”*", ""]
    return "\n".join(out).rstrip() + "\n"

