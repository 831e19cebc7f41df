"""The anchor ids of an entry page's blocks: made from the entry's data, never from its words, so the
same block has the same id in every language (docs/site.md, "Anchors"; the scheme for other users
is written there too).

``passages`` lists each block's id with its text in reading order: the site writes these ids into the
page (:mod:`kb.site.render`), and a search that points at a passage links to ``<page>#<id>``.
"""

from __future__ import annotations

import re
from typing import Iterator

from kb.view.entry import EntryView, Prose, Ruling, Section, Step, Steps, Value

__all__ = ["slug", "entry_anchor", "anchor", "section_anchor", "block_anchor", "blocks", "passages",
           "chunks", "ITEM", "SUMMARY", "QUESTION", "ANSWER", "SOURCE"]

SUMMARY, QUESTION, ANSWER, SOURCE = "summary", "question", "answer", "source"
"""The ids of the summary, a ruling's question and answer, and the source line."""

ITEM = re.compile(r"(?:[-*+]|\d+[.)])[ \t]+")
"""A list item's marker at the start of a line."""


def slug(text: str) -> str:
    """Only ``[a-z0-9-]`` kept, every other run of characters one ``-``."""
    return re.sub(r"[^a-z0-9-]+", "-", str(text).lower())


def entry_anchor(entry_id: str) -> str:
    """The id of an entry's heading: ``malifaux.engaged`` -> ``malifaux-engaged``."""
    return slug(entry_id)


def anchor(prefix: str, item_id: str) -> str:
    """The id of a step or worked example: ``step-upkeep``, ``example-tie``."""
    return f"{prefix}-" + slug(item_id)


def section_anchor(key: str) -> str:
    """The id of a section's heading, from its key: ``facts``, ``see-also``, ``referenced-by``."""
    return slug(key)


def block_anchor(key: str, n: int) -> str:
    """The id of the ``n``-th block (from 1) of a section: ``text-1``, ``notes-2``, ``player-questions-3``."""
    return f"{section_anchor(key)}-{n}"


def chunks(text: str) -> list[list[str]]:
    """A content text's chunks (the text between blank lines), each as its blocks: a paragraph is one
    block; a list is one block per item (a line starting with ``-``, ``*``, ``+`` or ``1.``, with the
    lines under it)."""
    out: list[list[str]] = []
    for chunk in re.split(r"\n[ \t]*\n", text.strip("\n")):
        if not chunk.strip():
            continue
        lines = chunk.split("\n")
        if not ITEM.match(lines[0]):
            out.append([chunk])
            continue
        items: list[str] = []
        for line in lines:
            if ITEM.match(line) or not items:
                items.append(line)
            else:
                items[-1] += "\n" + line
        out.append(items)
    return out


def blocks(text: str) -> list[str]:
    """A content text's blocks, as Markdown reads them: each paragraph, and each item of a list. The
    ``n``-th block of section ``key`` has the id ``block_anchor(key, n)``."""
    return [b for chunk in chunks(text) for b in chunk]


def _value(v: Value) -> str:
    return "".join(s.text for s in v)


def _steps(steps: tuple[Step, ...]) -> Iterator[tuple[str, str]]:
    for step in steps:
        yield anchor("step", step.id), " ".join(filter(None, (_value(step.title), _value(step.text))))
        yield from _steps(step.steps)


def passages(view: EntryView) -> Iterator[tuple[str, str]]:
    """Each block of the entry's page that has an id, with its text (content text keeps its ``{@…}``
    links; names and numbers are as shown), in reading order. Headings of sections come with their
    interface word; an example with its title."""
    if view.summary:
        yield SUMMARY, view.summary
    for section in view.sections:
        yield from _section(section)
    if view.source:
        yield SOURCE, f"{view.source.title or view.source.doc}, {view.source.section}"


def _section(section: Section) -> Iterator[tuple[str, str]]:
    body, key = section.body, section.key
    if isinstance(body, Ruling):
        yield QUESTION, _value(body.question)
        yield ANSWER, _value(body.answer)
    elif isinstance(body, Prose):
        yield from ((block_anchor(key, n), block) for n, block in enumerate(blocks(body.text), 1))
    else:
        yield section_anchor(key), section.heading
        if isinstance(body, Steps):
            yield from _steps(body.steps)
        elif isinstance(body, tuple):
            yield from ((anchor("example", ex.id), " ".join(filter(None, (ex.view.title, ex.view.note)))) for ex in body)
        # a table's row, a link, a player's question (asked in each language in its own words): the heading's id only
