"""Plain, frozen data: what the loader builds and every other stage reads."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterator, Mapping

from kb.core.plain import Plain, plain

__all__ = [
    "page_stem",
    "LANGS",
    "SOURCE_LANG",
    "TARGET_LANG",
    "KINDS",
    "COMMON",
    "Location",
    "Marks",
    "Text",
    "Example",
    "Term",
    "Entry",
    "Game",
    "iter_texts",
    "field_key",
]

LANGS: tuple[str, ...] = ("es", "en")
"""The languages of the knowledge base, source language first; declared here only (tests/test_agreement.py)."""
SOURCE_LANG = "es"
"""The language every entry is written in first; the others are translations of it."""
TARGET_LANG = "en"
"""The language entries are translated into."""
KINDS: tuple[str, ...] = ("action", "ability", "terrain", "sequence", "rule", "ruling", "term", "concept")
"""Entry kinds, declared here only (the schema's enum, the CLI, the scaffold, the site and the search box
follow it: tests/test_agreement.py). ``concept`` entries live in the shared namespace and join terms of
several games."""
GAME_KINDS: tuple[str, ...] = tuple(k for k in KINDS if k != "concept")
"""The kinds an entry of one game can be (every kind but the shared ``concept``)."""

COMMON = "common"
"""The shared namespace (``content/common/``) that holds cross-game concepts: no game may take its name."""

MAX_ID = 100
"""Longest entry id (the schema's ``maxLength``, reported as ``invalid-value``): an entry with a longer one is not
made, and ``kb new`` refuses one, so no command meets a page or file name past what a file system allows."""

DataPath = tuple[str | int, ...]
"""A path into an entry's data: ``("examples", 2, "given", "roll")``."""


@dataclass(frozen=True)
class Location(Plain):
    """A place in a content file, 1-based."""

    path: Path
    """The file."""
    line: int = 1
    """Line number, counting from 1."""
    column: int = 1
    """Column number, counting from 1."""


@dataclass(frozen=True)
class Marks:
    """Side table from data paths to the line and column where each value (or key) starts."""

    path: Path
    """The file the marks belong to."""
    values: Mapping[DataPath, tuple[int, int]] = field(default_factory=dict)
    """Where each value starts."""
    keys: Mapping[DataPath, tuple[int, int]] = field(default_factory=dict)
    """Where the key that holds each mapping value starts (for unknown-key messages)."""

    def at(self, path: DataPath = (), key: bool = False) -> Location:
        """The location of ``path``, or of its nearest ancestor that has a mark."""
        table = self.keys if key else self.values
        probe = tuple(path)
        while probe:
            if probe in table:
                return Location(self.path, *table[probe])
            if probe in self.values:
                return Location(self.path, *self.values[probe])
            probe = probe[:-1]
        return Location(self.path, *self.values.get((), (1, 1)))

    def at_offset(self, path: DataPath, value: str, offset: int) -> Location:
        """Location of character ``offset`` of the string at ``path``.

        Exact for one-line texts and ``|`` blocks; folded and multi-line plain texts are approximate.
        """
        start = self.at(path)
        line_no = value.count("\n", 0, offset)
        if line_no == 0:
            return Location(start.path, start.line, start.column + offset)
        return Location(start.path, start.line + line_no, start.column + offset - value.rfind("\n", 0, offset) - 1)


@dataclass(frozen=True)
class Text(Plain):
    """A translatable text: the Spanish source and its English translation (if any)."""

    es: str
    """Spanish source."""
    en: str | None = None
    """English translation; ``None`` while untranslated."""

    def get(self, lang: str) -> str | None:
        """The text in ``lang`` (``None`` when missing)."""
        return self.es if lang == "es" else self.en

    def best(self, lang: str) -> str:
        """The text in ``lang``, falling back to the Spanish source."""
        return self.get(lang) or self.es


@dataclass(frozen=True, repr=False)
class Example(Plain):
    """A worked example: inputs given to a named resolver and the outcome expected."""

    id: str
    """Identifier, unique within its entry."""
    mechanic: str
    """Name of the resolver that computes the outcome."""
    given: Mapping[str, Any]
    """Inputs for the resolver."""
    expect: Mapping[str, Any] | None
    """Expected outputs (a subset of what the resolver returns)."""
    expect_error: str | None
    """Expected error code instead of outputs."""
    error_kind: str | None
    """What the expected refusal means: ``forbidden``, ``unstated``, ``elsewhere``, ``impossible`` or ``incomplete`` (``None`` when not given)."""
    error_see: str | None
    """The entry the refusal points to: the rule that forbids it, or the entry that covers the other case."""
    tolerance: float | None
    """Allowed absolute difference for numeric outputs."""
    probability: Fraction | None
    """Expected exact probability of success, when the resolver states one."""
    title: Text | None
    """Short bilingual title."""
    note: Text | None
    """What the example shows or assumes, in words."""
    index: int
    """Position in the entry's ``examples`` list."""
    location: Location
    """Where the example starts."""

    def __repr__(self) -> str:
        return f"Example({self.id!r}, mechanic={self.mechanic!r})"


@dataclass(frozen=True, repr=False)
class Term(Plain):
    """The glossary facet of a ``term`` entry."""

    id: str
    """The entry id."""
    game: str
    """The game the term belongs to."""
    forms: Mapping[str, tuple[str, ...]]
    """Written forms per language (inflections and plurals included)."""
    abbreviations: Mapping[str, tuple[str, ...]]
    """Abbreviations per language (matched case-sensitively in text)."""
    concept: str | None
    """Id of the shared concept, if any."""
    do_not_translate: bool
    """True when the term stays in its original wording in every language."""
    forbidden: Mapping[str, tuple[str, ...]]
    """Translations that must not be used, per language."""

    def __repr__(self) -> str:
        return f"Term({self.id!r})"


@dataclass(frozen=True, repr=False)
class Entry(Plain):
    """One knowledge-base entry, as loaded from one YAML file."""

    id: str
    """Stable, language-neutral id ``<namespace>.<slug>``."""
    kind: str
    """One of :data:`KINDS`."""
    game: str
    """The game (folder) the entry belongs to; the shared namespace for concepts."""
    title: Text
    """Title per language."""
    data: Mapping[str, Any]
    """Everything the file holds, as plain data."""
    marks: Marks
    """Where each value of ``data`` sits in the file."""
    examples: tuple[Example, ...] = ()
    """Worked examples."""
    term: Term | None = None
    """The glossary facet, for ``term`` entries."""

    _plain_skip = ("marks",)

    def __repr__(self) -> str:
        return f"Entry({self.id!r}, kind={self.kind!r}, game={self.game!r})"

    def to_dict(self) -> dict[str, Any]:
        """The entry as plain data: its id, kind, game, file and everything the file holds."""
        return {"id": self.id, "kind": self.kind, "game": self.game, "path": str(self.path),
                "data": plain(self.data)}

    @property
    def path(self) -> Path:
        """The file the entry was loaded from."""
        return self.marks.path

    @property
    def location(self) -> Location:
        """Where the entry starts."""
        return self.marks.at(())

    def best(self, name: str, lang: str) -> str:
        """The text field ``name`` in ``lang`` (the Spanish when there is no translation); "" without the field."""
        found = self.text(name)
        return found.best(lang) if found else ""

    def text(self, name: str) -> Text | None:
        """A top-level translatable field (``summary``, ``text``...) as :class:`Text`."""
        value = self.data.get(name)
        if not isinstance(value, dict) or not isinstance(value.get("es"), str):
            return None  # absent, or not a text (the schema reports it)
        return Text(value["es"], value["en"] if isinstance(value.get("en"), str) else None)

    @property
    def rule_type(self) -> str:
        """core, optional, variant or clarification."""
        value = self.data.get("rule_type", "core")
        return value if isinstance(value, str) else "core"

    @property
    def see_also(self) -> tuple[str, ...]:
        """Ids of related entries."""
        return _strings(self.data.get("see_also"))

    @property
    def tags(self) -> tuple[str, ...]:
        """Free tags."""
        return _strings(self.data.get("tags"))

    def also_called(self, lang: str) -> tuple[str, ...]:
        """What players of ``lang`` call this entry (community names, abbreviations)."""
        names = self.data.get("also_called")
        return _strings(names.get(lang) if isinstance(names, dict) else None)

    def questions(self, lang: str) -> tuple[str, ...]:
        """The questions of ``lang`` this entry answers, as its page shows them (well formed, a handful)."""
        return self._phrases("questions", lang)

    def typed(self, lang: str) -> tuple[str, ...]:
        """What players of ``lang`` type when they mean one of the questions (searched, never shown)."""
        return self._phrases("typed", lang)

    def _phrases(self, key: str, lang: str) -> tuple[str, ...]:
        words = self.data.get(key)
        return _strings(words.get(lang) if isinstance(words, dict) else None)


def _strings(value: Any) -> tuple[str, ...]:
    """The texts of a list (nothing when it is not one: the schema reports that)."""
    return tuple(v for v in value if isinstance(v, str)) if isinstance(value, list) else ()


@dataclass(frozen=True, repr=False)
class Game(Plain):
    """A game's metadata (``content/<game>/game.yaml``)."""

    id: str
    """The game slug, equal to its folder name."""
    name: Text
    """The game's name per language."""
    data: Mapping[str, Any]
    """Everything the file holds."""
    marks: Marks
    """Where each value sits in the file."""

    kind = "game"
    """What the translators' tools call this file's fields' owner (entries say their kind)."""

    @property
    def game(self) -> str:
        """The game itself (so translators' tools treat a game file like an entry of that game)."""
        return self.id

    @property
    def title(self) -> Text:
        """The game's name."""
        return self.name

    @property
    def path(self) -> Path:
        """The ``game.yaml`` file."""
        return self.marks.path

    _plain_skip = ("marks",)

    def __repr__(self) -> str:
        return f"Game({self.id!r})"


_SKIP_TEXTS = frozenset({"given", "expect", "i18n"})


def iter_texts(data: Any, path: DataPath = ()) -> Iterator[tuple[DataPath, Mapping[str, str]]]:
    """Every translatable text (a mapping of ``es`` and maybe ``en`` strings) inside ``data``."""
    if isinstance(data, dict):
        if isinstance(data.get("es"), str) and set(data) <= set(LANGS):
            if all(isinstance(v, str) for v in data.values()):  # else the schema reports the value
                yield path, data
            return
        for key, value in data.items():
            if key not in _SKIP_TEXTS:
                yield from iter_texts(value, path + (key,))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from iter_texts(value, path + (i,))


def field_key(data: Any, path: DataPath) -> str:
    """A stable name for the field at ``path``: list items are named by their ``id`` (or a game's
    source by its ``doc``) when they have one.

    ``("sequence", "steps", 2, "text")`` becomes ``sequence.steps[upkeep].text``;
    ``("sources", 0, "title")`` in a game file ``sources[004_f696d02338d63821.txt].title``.
    """
    out, node = "", data
    for part in path:
        if isinstance(part, int):
            item = node[part] if isinstance(node, list) and part < len(node) else None
            out += f"[{_item_name(item, part)}]"
            node = item
        else:
            out += f".{part}" if out else str(part)
            node = node.get(part) if isinstance(node, dict) else None
    return out


def _item_name(item: Any, index: int) -> str | int:
    """A list item's name in a field key: its ``id`` or ``doc`` when it has one, else its index."""
    if isinstance(item, dict):
        for key in ("id", "doc"):
            if isinstance(item.get(key), str):
                return str(item[key])
    return index


RESERVED_PAGES = frozenset({"index", "glossary", "quickref"})
"""Page names a game folder uses itself; an entry with such a slug gets ``<slug>-entry``."""


def page_stem(kind: str, game: str, entry_id: str) -> str:
    """The page an entry is written to, without ``.md``/``.html``: ``<game>/<slug>`` (``<slug>-entry`` for a
    reserved name), ``concepts`` for every concept. Lower-case ``[a-z0-9-]`` only, so a bad id or game cannot
    leave the site, and two ids that differ in case or punctuation share a stem (``kb check`` reports it)."""
    if kind == "concept":
        return "concepts"
    folder, slug = _safe(game), _safe(entry_id.split(".", 1)[-1])
    return f"{folder}/{slug}{'-entry' if slug in RESERVED_PAGES else ''}"


def _safe(part: str) -> str:
    """``part`` as a file name: valid ids and games are unchanged; anything else keeps ``[a-z0-9-]`` only."""
    return re.sub(r"[^a-z0-9-]+", "-", part.lower()).strip("-") or "-"
