""""See also" suggestions for entries that have none: the entries of the same game that share the most
glossary terms and concepts with them (``kb check --suggest``).

An entry's *terms* are the glossary terms written in its Spanish summary, text and notes (detected as
the site's tooltips are), the terms it links to, and itself when it is a term; its *concepts* are
those terms' shared concepts. A candidate scores a point per shared term and per shared
concept, each weighed by how rare it is (``1 / the number of entries that share it``: "troop" says
less than "threat area"); entries it already links to, or that link to it, are left out (a reader has that path).
Pure: reads a loaded knowledge base, writes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from kb.link.view import Linked

__all__ = ["Suggestion", "suggest_see_also"]

_FIELDS = ("summary", "text", "notes")


@dataclass(frozen=True)
class Suggestion:
    """Entries worth a "see also" from ``entry``, best first, with the terms and concepts they share."""

    entry: str
    """The entry without a "see also"."""
    candidates: tuple[tuple[str, tuple[str, ...]], ...]
    """(entry id, the shared term and concept ids), best first."""


def _terms(kb: "Linked", entry_id: str) -> set[str]:
    entry = kb.entries[entry_id]
    found: set[str] = {entry_id} if entry.kind == "term" else set()
    for name in _FIELDS:
        text = entry.text(name)
        if text is not None:
            found |= {m.term for m in kb.graph.terms.detect(text.es, "es", entry.game)}
    found |= {lk.target for lk in kb.links_from(entry_id) if lk.target in kb.entries
              and kb.entries[lk.target].kind == "term"}
    concepts = {term.concept for t in found if (term := kb.entries[t].term) is not None and term.concept}
    return found | {c for c in concepts if c}


def suggest_see_also(kb: "Linked", limit: int = 3) -> list[Suggestion]:
    """A suggestion for each entry (not a concept) with no ``see_also`` that shares terms with another."""
    shared = {eid: _terms(kb, eid) for eid, e in kb.entries.items() if e.kind != "concept"}
    df: dict[str, int] = {}
    for terms in shared.values():
        for t in terms:
            df[t] = df.get(t, 0) + 1
    out: list[Suggestion] = []
    for eid, entry in sorted(kb.entries.items()):
        if entry.kind == "concept" or entry.see_also:
            continue
        linked = {lk.target for lk in kb.links_from(eid)} | {lk.source for lk in kb.backlinks(eid)}
        scored = []
        for other, terms in shared.items():
            if other == eid or other in linked or kb.entries[other].game != entry.game:
                continue
            common = shared[eid] & terms - {eid}
            if common:
                weight = sum(1 / df[t] for t in common)
                scored.append((-weight, other, tuple(sorted(common, key=lambda t: (df[t], t)))))
        if scored:
            out.append(Suggestion(eid, tuple((o, c) for _, o, c in sorted(scored)[:limit])))
    return out
