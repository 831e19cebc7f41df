"""Translation units: a text cut into paragraphs and list items, unwrapped, and put back together.

A field's text is Markdown-like: paragraphs separated by blank lines, list items (``- ``, ``* ``,
``1. ``) one per line with indented continuation lines, in a block that starts with one (as the site reads it,
:func:`kb.view.anchors.chunks`: a line starting ``1)`` inside a paragraph is a wrapped line of it). Each paragraph or list item is one unit
(one PO message), its authors' line breaks replaced by spaces. Putting a text back together keeps
the separators and list markers of the original and, for each unit, either its original lines
(unchanged units) or the new text, wrapped like the Spanish wraps it.
"""

from __future__ import annotations

import re
import textwrap
from collections import Counter
from dataclasses import dataclass
from difflib import Match, SequenceMatcher
from typing import Hashable, Mapping, Sequence, TypeVar

__all__ = ["Unit", "split", "shape", "aligned", "join", "match", "opcodes", "Opcode", "WRAP_WIDTH", "MAX_COMPARED"]

_ITEM = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>[-*+]|\d{1,9}[.)])[ \t]+(?=\S)")
_BLANK = re.compile(r"(\n(?:[ \t]*\n)+)")
WRAP_WIDTH = 100
"""Longest line when a unit is re-wrapped and the Spanish gives no width of its own."""
MAX_COMPARED = 1_000_000
"""The most work :func:`opcodes` spends comparing what two texts do not share at their start and end, counted as
:meth:`difflib.SequenceMatcher.find_longest_match` does it (for each item of the range searched, the places of
that item in the other text): a few tenths of a second at most, whatever the texts' shape. Unbounded, the work grows
with the product of their lengths or worse (a rewritten paragraph of 43 KB took 23 s). A rewritten paragraph of
about 300 words, or any paragraph changed in one place, stays under it; past it the middle is one change."""

Opcode = tuple[str, int, int, int, int]
"""One step of a diff, as :meth:`difflib.SequenceMatcher.get_opcodes` gives it: tag, then ``a[i1:i2]``, ``b[j1:j2]``."""
_T = TypeVar("_T", bound=Hashable)


@dataclass(frozen=True)
class Unit:
    """One paragraph or list item of a text."""

    text: str
    """The unit unwrapped: its lines joined by single spaces, without list marker."""
    prefix: str
    """The list marker with its indent and the space after it (``"- "``, ``"  1. "``), or ``""``."""
    sep: str
    """What comes before the unit in the text: ``""`` (the first), ``"\\n"`` or a blank-line run."""
    lines: tuple[str, ...]
    """The unit's lines as written (marker and indents included)."""

    @property
    def kind(self) -> tuple[str, int, str]:
        """What must agree between a Spanish unit and its English: blank line or not, list marker type, indent."""
        marker = self.prefix.strip()
        mtype = "" if not marker else ("#" if marker[0].isdigit() else "-")
        return ("blank" if self.sep.count("\n") > 1 else "line" if self.sep else "start",
                len(self.prefix) - len(self.prefix.lstrip()), mtype)


def split(text: str, anywhere: bool = False) -> list[Unit]:
    """The units of ``text`` (line breaks at its ends ignored); none for a blank text. ``anywhere``: a line starting
    with a list marker is an item even inside a paragraph (what a translator who typed one meant)."""
    text = text.replace("\r\n", "\n").strip("\n")
    if not text.strip():
        return []
    out: list[Unit] = []
    pieces = _BLANK.split(text)
    for i in range(0, len(pieces), 2):
        block_sep = pieces[i - 1] if i else ""
        current: list[str] = []
        prefix = ""
        first = True

        def close() -> None:  # called only within this iteration: the loop's variables are this block's
            nonlocal first
            if current:  # noqa: B023
                body = " ".join(line.strip() for line in [current[0][len(prefix):], *current[1:]])  # noqa: B023
                out.append(Unit(body, prefix, block_sep if first else "\n", tuple(current)))  # noqa: B023
                first = False

        listed = anywhere or _ITEM.match(pieces[i]) is not None  # as the site reads it: a list starts its block, never
        for line in pieces[i].split("\n"):         # inside a paragraph ("… entre 0,5 y\n1) no hace falta …")
            m = _ITEM.match(line) if listed else None
            if m or not current:
                close()
                current = [line]
                prefix = m.group(0) if m else ""
            else:
                current.append(line)
        close()
    return out


def shape(units: Sequence[Unit]) -> tuple[tuple[str, int, str], ...]:
    """The structure of a text: what each unit is and how it is separated from the one before."""
    return tuple(u.kind for u in units)


def aligned(a: Sequence[Unit], b: Sequence[Unit]) -> bool:
    """True when the two texts have the same paragraphs and list items in the same order."""
    return shape(a) == shape(b)


def _wrap(text: str, prefix: str, width: int) -> list[str]:
    """``text`` wrapped at ``width`` after ``prefix``; links (``{@kind id|shown}``) are never broken."""
    protected = re.sub(r"\{@[^{}]*\}", lambda m: m.group(0).replace(" ", "\0"), text)
    indent = " " * len(prefix)
    lines = textwrap.wrap(protected, width=width, initial_indent=prefix, subsequent_indent=indent,
                          break_long_words=False, break_on_hyphens=False) or [prefix.rstrip()]
    return [line.replace("\0", " ") for line in lines]


def join(spanish: Sequence[Unit], english: Sequence[Unit] | None, new: Mapping[int, str], wrap: bool,
         written: Sequence[Unit] = ()) -> str:
    """An English text shaped like ``spanish``: unit ``i`` is ``new[i]`` if given, else the English's unit ``i``.

    New units are wrapped at the longest line of the Spanish or the English when ``wrap`` is true
    and the Spanish unit spans several lines; otherwise each stays on one line. ``english`` must be
    aligned with ``spanish`` whenever a unit is not in ``new``. A new unit that is, word for word and with the same
    marker, a unit of ``written`` (the English as it is, aligned or not: a paragraph the Spanish gained or lost moves
    the others) keeps that unit's lines: a paragraph nobody changed is not re-wrapped.
    """
    width = _longest_line(spanish, english or ()) or WRAP_WIDTH
    as_written = {(" ".join(u.text.split()), u.prefix): u.lines for u in written}
    out: list[str] = []
    for i, es in enumerate(spanish):
        old = english[i] if english is not None and i < len(english) else None
        lines = _as_written(as_written, es, old, new.get(i)) or _unit_lines(es, old, new.get(i), wrap, width)
        sep = old.sep if old is not None else es.sep
        out.append((sep if i else "") + "\n".join(lines))
    return "".join(out)


def _as_written(written: Mapping[tuple[str, str], tuple[str, ...]], es: Unit, old: Unit | None,
                text: str | None) -> list[str]:
    """The lines of the English unit that already says ``text`` word for word, with the marker it would get."""
    if text is None:
        return []
    return list(written.get((" ".join(text.split()), old.prefix if old is not None else es.prefix), ()))


def _longest_line(*texts: Sequence[Unit]) -> int:
    """The length of the longest line of any unit of ``texts`` (0 when there is none)."""
    return max((len(line) for units in texts for u in units for line in u.lines), default=0)


def _unit_lines(es: Unit, old: Unit | None, text: str | None, wrap: bool, width: int) -> list[str]:
    """The lines of one English unit: ``text`` (unwrapped, then wrapped at ``width`` if ``wrap`` and the Spanish unit
    ``es`` spans several lines) after the
    English's prefix (else the Spanish's), or the old English's lines when there is no new text."""
    if text is None:
        assert old is not None, "a unit without new English needs an aligned English text"
        return list(old.lines)
    prefix = old.prefix if old is not None else es.prefix
    text = " ".join(text.split())
    return _wrap(text, prefix, width) if wrap and len(es.lines) > 1 else [prefix + text]


def opcodes(a: Sequence[_T], b: Sequence[_T], limit: int = MAX_COMPARED) -> tuple[list[Opcode], bool]:
    """The steps that make ``a`` into ``b``, and whether they are exact.

    What the two share at their start and at their end is equal; the middle is compared item by item
    (:class:`difflib.SequenceMatcher`) until the work passes ``limit``: then it is one ``replace`` (not exact:
    correct, but coarse), so a diff's time is bounded whatever the size and shape of the texts."""
    short = min(len(a), len(b))
    start = 0
    while start < short and a[start] == b[start]:
        start += 1
    end = 0
    while end < short - start and a[len(a) - 1 - end] == b[len(b) - 1 - end]:
        end += 1
    i2, j2 = len(a) - end, len(b) - end
    ops: list[Opcode] = [("equal", 0, start, 0, start)] if start else []
    tail: list[Opcode] = [("equal", i2, len(a), j2, len(b))] if end else []
    try:
        middle = _Bounded(a[start:i2], b[start:j2], limit).get_opcodes()
    except _TooLong:
        return ops + [("replace", start, i2, start, j2)] + tail, False
    return ops + [(tag, start + x1, start + x2, start + y1, start + y2) for tag, x1, x2, y1, y2 in middle] + tail, True


class _TooLong(Exception):
    """A comparison would pass its bound."""


class _Bounded(SequenceMatcher[_T]):
    """A :class:`difflib.SequenceMatcher` (no junk) that stops with :class:`_TooLong` before its work passes ``limit``."""

    def __init__(self, a: Sequence[_T], b: Sequence[_T], limit: int) -> None:
        super().__init__(None, a, b, autojunk=False)
        self.items, self.places, self.left = a, Counter(b), limit

    def find_longest_match(self, alo: int = 0, ahi: int | None = None, blo: int = 0,
                           bhi: int | None = None) -> Match:
        ahi = len(self.items) if ahi is None else ahi
        self.left -= sum(self.places[x] for x in self.items[alo:ahi])  # each a[i] walks its item's places in b
        if self.left < 0:
            raise _TooLong
        return super().find_longest_match(alo, ahi, blo, bhi)


def match(before: Sequence[Unit], after: Sequence[Unit]) -> dict[int, int | None]:
    """For each unit of ``after``: the unit of ``before`` it is unchanged from (whitespace aside), or ``None``."""
    a = [" ".join(u.text.split()) for u in before]
    b = [" ".join(u.text.split()) for u in after]
    out: dict[int, int | None] = {j: None for j in range(len(b))}
    for tag, i1, _i2, j1, j2 in opcodes(a, b)[0]:
        if tag == "equal":
            for k in range(j2 - j1):
                out[j1 + k] = i1 + k
    return out
