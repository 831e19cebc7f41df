"""The checks ``kb check`` makes of an English text, run on a translation before it is imported.

Markup (``raw-html``, ``block-markup``), what the schema allows there (a title's length: ``invalid-value``), links (``malformed-link``, ``unknown-link-type``, ``unresolved-link``,
``link-kind-mismatch``) and the glossary (``glossary-forbidden``, ``glossary-missing``), each
located at the offending word through ``locate`` (an offset in the English -> a location).

One more check is the import's own: the English links to the Spanish's targets. A link to a target
(or a step or example of it) the Spanish does not link to is ``link-target-changed``, an error, at
the link: a translator cannot redirect a page's links. A target of the Spanish the English no longer
links to is ``link-target-dropped``, a warning at the message's start: reported, not refused (an
English rewording may say a linked word without the link, as one bundled entry does).

Emphasis is compared too (:func:`emphasis`): an English that opens ``**`` or ``*`` without closing it
(the page would show the asterisks), or has another number of bold or italic spans than the Spanish
(a bold label dropped from a list item), is ``emphasis-changed``, a warning at the mark.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable, Mapping

from kb.core.diagnostics import Diagnostic, diag, hint
from kb.core.model import DataPath, Entry, Game, Location, Text
from kb.core.schema import validate_at
from kb.core.terms import TermIndex
from kb.core.validate import RAW_HTML, block_markup, is_name
from kb.i18n.status import Owner, glossary_problems
from kb.link.linker import LINK_TYPES, anchors, parse_links

__all__ = ["check_english", "emphasis", "link_targets"]


def _target(link: re.Match[str]) -> str:
    """What a link points at: ``id`` or ``id#anchor``."""
    return link["target"] + (f"#{link['anchor']}" if link["anchor"] else "")


def link_targets(source: str, english: str, field: str, locate: Callable[[int], Location],
                 reported: frozenset[int] = frozenset()) -> list[Diagnostic]:
    """Links of ``english`` to targets ``source`` does not link to, and targets of ``source`` it drops.

    A link starting at an offset in ``reported`` already has an error of its own (it does not resolve)."""
    spanish = {_target(m): m["type"] for m in parse_links(source)[0]}
    out = []
    seen = set()
    for link in parse_links(english)[0]:
        target = _target(link)
        seen.add(target)
        if target not in spanish and link.start() not in reported:
            named = ", ".join(f"'{t}'" for t in sorted(spanish)) or "nothing"
            out.append(diag("link-target-changed", locate(link.start()), field=field, target=target, spanish=named))
    wrong = bool(out or reported)  # a wrong link is the dropped one, most likely: said once, as the error
    return out if wrong else _dropped(spanish, seen, field, locate)


def _dropped(spanish: Mapping[str, str], seen: set[str], field: str,
             locate: Callable[[int], Location]) -> list[Diagnostic]:
    """A warning for each target of the Spanish (target -> link type) the English does not link to."""
    return [diag("link-target-dropped", locate(0), field=field, target=target, kind=kind)
            for target, kind in spanish.items() if target not in seen]


_BOLD = re.compile(r"\*\*")
_ITALIC = re.compile(r"(?<=\S)\*|(?<!\S)\*(?=\S)")
"""A single ``*`` (bold marks taken out first), but not one with white space on both sides: a list marker
(``* item``, in a whole-field message) or a multiplication (``2 * 3``)."""


def _marks(text: str) -> dict[str, list[int]]:
    """The offsets of the bold (``**``) and italic (``*``) marks of ``text``."""
    bold = [m.start() for m in _BOLD.finditer(text)]
    rest = _BOLD.sub("\0\0", text)
    return {"**": bold, "*": [m.start() for m in _ITALIC.finditer(rest)]}


def emphasis(source: str, english: str, field: str, locate: Callable[[int], Location]) -> list[Diagnostic]:
    """The English's bold and italic marks against the Spanish's: unclosed, or not as many spans."""
    es, en = _marks(source), _marks(english)
    out = []
    for mark, name in (("**", "bold"), ("*", "italic")):
        if len(en[mark]) % 2:
            out.append(diag("emphasis-changed", locate(en[mark][-1]), field=field,
                            problem=f"'{mark}' is opened and not closed (the page would show it)"))
        elif len(en[mark]) != len(es[mark]) - len(es[mark]) % 2:
            out.append(diag("emphasis-changed", locate(en[mark][0] if en[mark] else 0), field=field,
                            problem=f"{len(en[mark]) // 2} {name} span(s) ({mark}…{mark}) where the Spanish has "
                                    f"{len(es[mark]) // 2}"))
    return out


def _excerpt(text: str, offset: int, width: int = 40) -> str:
    """The text of a malformed link at ``offset``: to its ``}``, else to the end of a word past ``width`` characters."""
    line = text[offset:].split("\n")[0]
    end = line.find("}")
    if 0 <= end < 2 * width:
        return line[:end + 1]
    cut = line.find(" ", width)
    return line if cut < 0 else line[:cut] + "…"


def _link_problem(link: re.Match[str], entries: Mapping[str, Entry], where: Location) -> Diagnostic | None:
    """What is wrong with one well-formed link of the English (its type, target, kind or anchor), if anything."""
    kind, target, anchor = link["type"], link["target"], link["anchor"]
    found = entries.get(target)
    if kind not in LINK_TYPES:
        return diag("unknown-link-type", where, type=kind, valid=", ".join(LINK_TYPES), hint=hint(kind, LINK_TYPES))
    if found is None:
        same_ns = [i for i in entries if i.split(".", 1)[0] == target.split(".", 1)[0]]
        return diag("unresolved-link", where, target=target, hint=hint(target, same_ns or list(entries)))
    if found.kind != kind:
        return diag("link-kind-mismatch", where, type=kind, target=target, kind=found.kind)
    if anchor is not None and anchor not in anchors(found):
        return diag("unresolved-link", where, target=f"{target}#{anchor}", hint=hint(anchor, anchors(found)))
    return None


def _schema_and_markup(owner: Owner, field: str, english: str, locate: Callable[[int], Location],
                       path: DataPath | None) -> list[Diagnostic]:
    """The schema's limits at ``path`` (when given), raw HTML, and block Markdown (not in a name) in ``english``."""
    out = []
    if path is not None:  # a name is one paragraph, written unwrapped (its line breaks folded)
        shown = " ".join(english.split()) if is_name(path) else english
        out += [replace(d, location=locate(0)) for d in validate_at(owner.data, owner.marks, path + ("en",), shown,
                                                                    "game" if isinstance(owner, Game) else "entry")]
    m = RAW_HTML.search(english)
    if m:
        out.append(diag("raw-html", locate(m.start()), tag=m.group(0)[:40], field=field))
    block = None if path is not None and is_name(path) else block_markup(english, field, locate)
    return out + ([block] if block else [])


def check_english(owner: Owner, field: str, source: str, english: str, entries: Mapping[str, Entry], terms: TermIndex,
                  titles: Mapping[str, Text], locate: Callable[[int], Location], path: DataPath | None = None) -> list[Diagnostic]:
    """Every problem ``kb check`` would report in ``english`` as the translation of ``source`` (at ``path``, the
    text's data path in ``owner``, when given: the schema's limits there too)."""
    out = _schema_and_markup(owner, field, english, locate, path)
    good, bad = parse_links(english)
    for off in bad:
        out.append(diag("malformed-link", locate(off), text=_excerpt(english, off)))
    spanish = {_target(m) for m in parse_links(source)[0]}
    broken = set(bad)
    for link in good:  # a broken link to a target the Spanish does not link to: link-target-changed says what to write
        problem = _link_problem(link, entries, locate(link.start())) if _target(link) in spanish else None
        if problem is not None:
            out.append(problem)
            broken.add(link.start())
    out += link_targets(source, english, field, locate, frozenset(broken))
    out += [] if path is not None and is_name(path) else emphasis(source, english, field, locate)
    for p in glossary_problems(owner, source, english, terms, titles):
        out.append(diag(p.code, locate(p.offset or 0), field=field, **p.params))
    return out
