"""What the stages after linking read of a loaded, linked knowledge base.

:class:`Linked` is the protocol that :class:`kb.api.KnowledgeBase` fulfils. The search index, the site
and the translation tools take a ``Linked``, so they depend on this description below them, never on
the API above them (the one-way flow of the house; see ``tests/test_layers.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Protocol

from kb.core.model import Entry, Game
from kb.core.plain import Plain, plain
from kb.link.linker import Graph, Link
from kb.mechanics import Registry

if TYPE_CHECKING:
    from kb.core.cache import KeyFn
    from kb.core.diagnostics import Diagnostic

__all__ = ["ConceptView", "Linked"]


@dataclass(frozen=True, repr=False)
class ConceptView(Plain):
    """A cross-game concept with the terms that name it in each game."""

    entry: Entry
    """The concept entry."""
    terms: Mapping[str, tuple[Entry, ...]]
    """Game id -> that game's terms for the concept."""
    related: Mapping[str, tuple[Entry, ...]] = field(default_factory=dict)
    """Game id -> that game's other entries that link to the concept (rules, actions...)."""

    def __repr__(self) -> str:
        return f"ConceptView({self.entry.id!r}, games={sorted(self.terms)})"

    def to_dict(self) -> dict[str, Any]:
        """The concept as plain data, naming entries by id."""
        def ids(by_game: Mapping[str, tuple[Entry, ...]]) -> dict[str, list[str]]:
            return {g: [e.id for e in es] for g, es in by_game.items()}

        return {"id": self.entry.id, "title": plain(self.entry.title), "terms": ids(self.terms),
                "related": ids(self.related)}


class TimeLimited(Protocol):
    """Limits with a time (:class:`kb.examples.limits.ExampleLimits`, a stage above this one)."""

    @property
    def seconds(self) -> float:
        """The time one worked example may run."""


class Linked(Protocol):
    """A loaded, validated and linked knowledge base, as the later stages read it."""

    graph: Graph
    """Links, backlinks, glossary terms and concepts."""
    cache_base: Path
    """The cache folder its loader was given (the adapter found it: :func:`kb.places.resolve_cache_base`)."""

    cache_key: KeyFn | None
    """What signs its cache files (:mod:`kb.core.cache`; the adapter passes the user's key; ``None``: this run's)."""

    @property
    def example_limits(self) -> TimeLimited:
        """What one worked example (and one calculator's answer) may take (:class:`kb.examples.limits.ExampleLimits`)."""

    @property
    def root(self) -> Path:
        """The content folder."""

    @property
    def entries(self) -> Mapping[str, Entry]:
        """Every entry by id."""

    @property
    def games(self) -> Mapping[str, Game]:
        """Game metadata by id."""

    @property
    def digests(self) -> Mapping[str, str]:
        """Content hash of every file (relative path -> digest)."""

    @property
    def registry(self) -> Registry:
        """The named resolvers."""

    def get(self, entry_id: str) -> Entry | None:
        """The entry with ``entry_id``, or ``None``."""

    def filter(self, game: str | None = None, kind: str | None = None, rule_type: str | None = None) -> list[Entry]:
        """Entries of a game, kind and rule type."""

    def links_from(self, entry_id: str) -> list[Link]:
        """Links written in an entry."""

    def backlinks(self, entry_id: str) -> list[Link]:
        """Links pointing at an entry."""

    def concept(self, concept_id: str) -> ConceptView:
        """A concept with its terms per game."""

    def concepts(self) -> list[ConceptView]:
        """Every concept."""

    def not_loaded(self, games: Iterable[str] | None = None) -> list[Diagnostic]:
        """Errors of the files that gave no entry (their entries are missing from every later stage)."""
