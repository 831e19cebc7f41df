"""Translation units: a text cut into paragraphs and list items, unwrapped, and put back together.

A field's text is Markdown-like: paragraphs separated by blank lines, list items (``- ``, ``* ``,
``1. ``) one per line with indented continuation lines. Each paragraph or list item is one unit
(one PO message), its authors' line breaks replaced by spaces. Putting a text back together keeps
the separators and list markers of the original and, for each unit, either its original lines
(unchanged units) or the new text, wrapped like the Spanish wraps it.
"""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Mapping, Sequence

__all__ = ["Unit", "split", "shape", "aligned", "join", "match", "WRAP_WIDTH"]

_ITEM = re.compile(r"^(?P<indent>[ \t]*)(?P<marker>[-*+]|\d{1,9}[.)])[ \t]+(?=\S)")
_BLANK = re.compile(r"(\n(?:[ \t]*\n)+)")
WRAP_WIDTH = 100
"""Longest line when a unit is re-wrapped and the Spanish gives no width of its own."""


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


def split(text: str) -> list[Unit]:
    """The units of ``text`` (line breaks at its ends ignored); none for a blank text."""
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

        for line in pieces[i].split("\n"):
            m = _ITEM.match(line)
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


def join(spanish: Sequence[Unit], english: Sequence[Unit] | None, new: Mapping[int, str], wrap: bool) -> str:
    """An English text shaped like ``spanish``: unit ``i`` is ``new[i]`` if given, else the English's unit ``i``.

    New units are wrapped at the longest line of the Spanish or the English when ``wrap`` is true
    and the Spanish unit spans several lines; otherwise each stays on one line. ``english`` must be
    aligned with ``spanish`` whenever a unit is not in ``new``.
    """
    width = _longest_line(spanish, english or ()) or WRAP_WIDTH
    out: list[str] = []
    for i, es in enumerate(spanish):
        old = english[i] if english is not None and i < len(english) else None
        lines = _unit_lines(es, old, new.get(i), wrap and len(es.lines) > 1, width)
        sep = old.sep if old is not None else es.sep
        out.append((sep if i else "") + "\n".join(lines))
    return "".join(out)


def _longest_line(*texts: Sequence[Unit]) -> int:
    """The length of the longest line of any unit of ``texts`` (0 when there is none)."""
    return max((len(line) for units in texts for u in units for line in u.lines), default=0)


def _unit_lines(es: Unit, old: Unit | None, text: str | None, wrap: bool, width: int) -> list[str]:
    """The lines of one English unit: ``text`` (unwrapped, then wrapped at ``width`` if ``wrap``) after the
    English's prefix (else the Spanish's), or the old English's lines when there is no new text."""
    if text is None:
        assert old is not None, "a unit without new English needs an aligned English text"
        return list(old.lines)
    prefix = old.prefix if old is not None else es.prefix
    text = " ".join(text.split())
    return _wrap(text, prefix, width) if wrap else [prefix + text]


def match(before: Sequence[Unit], after: Sequence[Unit]) -> dict[int, int | None]:
    """For each unit of ``after``: the unit of ``before`` it is unchanged from (whitespace aside), or ``None``."""
    a = [" ".join(u.text.split()) for u in before]
    b = [" ".join(u.text.split()) for u in after]
    out: dict[int, int | None] = {j: None for j in range(len(b))}
    for tag, i1, _i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            for k in range(j2 - j1):
                out[j1 + k] = i1 + k
    return out
