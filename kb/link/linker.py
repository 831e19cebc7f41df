"""Links between entries: inline tags, see-also, term concepts and phases; backlinks; the glossary graph."""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from functools import partial
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from kb.core.cache import no_memo
from kb.core.plain import Plain
from kb.core.diagnostics import Diagnostic, diag, format_path, hint
from kb.core.loader import COMMON
from kb.mechanics.procedures import flatten_steps
from kb.core.model import KINDS, LANGS, Entry, Location, field_key, iter_texts
from kb.core.terms import TermIndex, fold, tokens
from kb.core.questions import question_problems, wordfreq_stamp

__all__ = ["LINK", "Link", "Graph", "link", "parse_links", "anchors", "rebuild"]

LINK = re.compile(r"\{@(?P<type>[a-z]+)\s+(?P<target>[^\s|{}#]+)(?:#(?P<anchor>[a-z0-9-]+))?(?:\|(?P<display>[^{}]*))?\}")
"""An inline link: ``{@kind id}``, ``{@kind id|shown text}`` or ``{@sequence id#step|text}``."""
_OPEN = re.compile(r"\{@")
LINK_TYPES = KINDS


@dataclass(frozen=True)
class Link(Plain):
    """A typed edge from one entry to another."""

    source: str
    """Id of the entry that links."""
    target: str
    """Id of the entry linked to."""
    type: str
    """Link type: an entry kind for inline links, or ``see_also``, ``concept``, ``phase``."""
    field: str
    """Field of the source that holds the link (``text``, ``see_also``...)."""
    location: Location
    """Where the link is written."""
    anchor: str | None = None
    """A step or example id inside the target."""
    display: str | None = None
    """Text shown instead of the target's title."""


@dataclass
class Graph:
    """Every link, both directions, and the glossary."""

    links: list[Link] = field(default_factory=list)
    """All links, in file order."""
    outgoing: dict[str, list[Link]] = field(default_factory=lambda: defaultdict(list))
    """Links by source id."""
    incoming: dict[str, list[Link]] = field(default_factory=lambda: defaultdict(list))
    """Links by target id (backlinks)."""
    terms: TermIndex = field(default_factory=lambda: TermIndex(()))
    """Forms and abbreviations of every term."""
    concepts: dict[str, dict[str, list[str]]] = field(default_factory=dict)
    """Concept id -> game -> ids of the terms that share it."""


def rebuild(entries: dict[str, Entry], links: list[Link], concepts: dict[str, dict[str, list[str]]]) -> Graph:
    """The graph :func:`link` made, from its links and concepts (what the cache keeps: plain data)."""
    graph = Graph(links=list(links), concepts=concepts, terms=TermIndex(e.term for e in entries.values() if e.term))
    for lk in graph.links:
        graph.outgoing[lk.source].append(lk)
        graph.incoming[lk.target].append(lk)
    return graph


def parse_links(text: str) -> tuple[list[re.Match[str]], list[int]]:
    """Well-formed links in ``text`` and the offsets of malformed ``{@`` openings."""
    good = list(LINK.finditer(text))
    starts = {m.start() for m in good}
    return good, [m.start() for m in _OPEN.finditer(text) if m.start() not in starts]


def anchors(entry: Entry) -> set[str]:
    """Ids a link may point at inside ``entry`` (``#anchor``): its steps and worked examples."""
    seq = entry.data.get("sequence")
    steps = seq.get("steps", []) if isinstance(seq, dict) else []
    ids = {s["id"] for s in flatten_steps(steps) if isinstance(s, dict) and isinstance(s.get("id"), str)}
    return ids | {ex.id for ex in entry.examples}


class _Linker:
    def __init__(self, entries: dict[str, Entry], memo: Callable[[str, Entry, Callable[[], Any]], Any] = no_memo) -> None:
        self.entries = entries
        self.memo = memo
        self.graph = Graph()
        self.problems: list[Diagnostic] = []
        self._hints: dict[str, str] = {}
        self.unloaded: dict[str, Path] = {}
        self._self_links: dict[str, set[str]] = {}
        self._by_ns: dict[str, list[str]] = {}
        self._by_file: dict[str, Entry] = {}

    def _near(self, target: str) -> str:
        """"Did you mean" among the ids of the same namespace (all ids when it has none), cached."""
        if target not in self._hints:
            if not self._by_ns:
                for i in self.entries:
                    self._by_ns.setdefault(i.split(".", 1)[0], []).append(i)
            pool = self._by_ns.get(target.split(".", 1)[0]) or list(self.entries)
            self._hints[target] = hint(target, pool)
        return self._hints[target]

    def _file_of(self, target: str) -> Entry | None:
        """The entry of the file ``<game>/.../<slug>.yaml`` that a missing ``<game>.<slug>`` names, when that file
        loaded under another id (a wrong prefix, a typo): the link names it instead of suggesting another entry."""
        if not self._by_file:
            games = {e.game for e in self.entries.values()} | {i.split(".", 1)[0] for i in self.entries}
            for e in self.entries.values():
                for ns in games.intersection(e.path.parent.parts):
                    self._by_file.setdefault(f"{ns}.{e.path.stem}", e)
        return self._by_file.get(target)

    def resolve(self, entry: Entry, type_: str, target: str, fld: str, loc: Location,
                anchor: str | None = None, display: str | None = None, expect_kind: str | None = None) -> None:
        found = self.entries.get(target)
        if found is None and target in self.unloaded:
            self.problems.append(diag("link-to-unloaded", loc, target=target, path=format_path(self.unloaded[target])))
            return
        misnamed = self._file_of(target) if found is None else None
        if misnamed is not None:
            self.problems.append(diag("link-to-misnamed", loc, target=target, path=format_path(misnamed.path),
                                      id=misnamed.id))
            return
        if found is None:
            self.problems.append(diag("unresolved-link", loc, target=target, hint=self._near(target)))
            return
        if expect_kind and found.kind != expect_kind:
            self.problems.append(diag("link-kind-mismatch", loc, type=expect_kind, target=target, kind=found.kind))
            return
        if anchor is not None and anchor not in anchors(found):
            near = hint(anchor, anchors(found))
            self.problems.append(diag("unresolved-link", loc, target=f"{target}#{anchor}", hint=near))
            return
        lk = Link(entry.id, target, type_, fld, loc, anchor, display)
        if any(o.target == target and o.field == fld and o.anchor == anchor for o in self.graph.outgoing[entry.id]):
            return  # the same link in the other language's text
        if target == entry.id and anchor is None:
            if fld not in self._self_links.setdefault(entry.id, set()):
                self._self_links[entry.id].add(fld)
                self.problems.append(diag("self-link", loc, field=fld))
            return
        self.graph.links.append(lk)
        self.graph.outgoing[entry.id].append(lk)
        self.graph.incoming[target].append(lk)

    def inline(self, entry: Entry) -> None:
        for path, text in iter_texts(entry.data):
            fld = field_key(entry.data, path)
            for lang, value in text.items():
                good, bad = parse_links(value)
                for off in bad:
                    snippet = value[off:].split("\n")[0][:40]
                    self.problems.append(diag("malformed-link", entry.marks.at_offset(path + (lang,), value, off), text=snippet))
                for m in good:
                    loc = entry.marks.at_offset(path + (lang,), value, m.start())
                    if m["type"] not in LINK_TYPES:
                        self.problems.append(diag("unknown-link-type", loc, type=m["type"], valid=", ".join(LINK_TYPES),
                                                  hint=hint(m["type"], LINK_TYPES)))
                        continue
                    self.resolve(entry, m["type"], m["target"], fld, loc, m["anchor"], m["display"], m["type"])

    def structural(self, entry: Entry) -> None:
        data, marks = entry.data, entry.marks
        see_also = data.get("see_also")
        for i, target in enumerate(see_also if isinstance(see_also, list) else []):
            if isinstance(target, str):
                self.resolve(entry, "see_also", target, "see_also", marks.at(("see_also", i)))
        for ex in entry.examples:
            if ex.error_see:  # the rule that forbids it, or the entry of the other case
                self.resolve(entry, "see_also", ex.error_see, f"examples.{ex.id}.expect_error.see",
                             marks.at(("examples", ex.index, "expect_error", "see")))
        if entry.term and entry.term.concept:
            self.resolve(entry, "concept", entry.term.concept, "term.concept", marks.at(("term", "concept")),
                         expect_kind="concept")
        self._phase(entry)

    def _phase(self, entry: Entry) -> None:
        """An action's ``phase``: a link to a sequence (``<sequence id>#<step id>``)."""
        action = entry.data.get("action")
        phase = action.get("phase") if isinstance(action, dict) else None
        marks = entry.marks
        if isinstance(phase, str):
            target, _, anchor = phase.partition("#")
            self.resolve(entry, "phase", target, "action.phase", marks.at(("action", "phase")), anchor or None,
                         expect_kind="sequence")

    def glossary(self) -> None:
        index = TermIndex(e.term for e in self.entries.values() if e.term)
        self.graph.terms = index
        self.problems.extend(index.conflicts(self.entries))
        self.problems.extend(player_name_conflicts(self.entries.values()))
        # each entry's questions checked once per content of its file and wordfreq's lists (the accent check's)
        questions = f"questions@{hashlib.sha256(wordfreq_stamp().encode()).hexdigest()[:12]}"
        for e in self.entries.values():
            self.problems.extend(self.memo(questions, e, partial(question_problems, [e])))
        used: set[str] = {lk.target for lk in self.graph.links if self.entries[lk.target].kind == "term"
                          and lk.source != lk.target}
        for e in self.entries.values():
            used.update(self.memo("used-terms", e, partial(_terms_in, index, e)))
        broken = {i.split(".", 1)[0] for i in self.unloaded}  # games with a file that did not load: it may use them
        for tid, term in index.terms.items():
            if tid not in used and not broken & {term.game, COMMON if broken else ""}:
                self.problems.append(diag("unused-term", self.entries[tid].location, id=tid))
            if term.concept and term.concept in self.entries and self.entries[term.concept].kind == "concept":
                self.graph.concepts.setdefault(term.concept, {}).setdefault(term.game, []).append(tid)
        for e in self.entries.values():
            if e.kind == "concept":
                games = set(self.graph.concepts.setdefault(e.id, {}))
                games |= {self.entries[lk.source].game for lk in self.graph.incoming.get(e.id, ())
                          if self.entries[lk.source].kind != "concept"}  # entries that point to it join too
                if len(games) < 2:
                    self.problems.append(diag("lonely-concept", e.location, id=e.id, count=len(games)))


def player_name_conflicts(entries: Iterable[Entry]) -> list[Diagnostic]:
    """A players' name (``also_called``) given to two entries of one game, case and accents ignored."""
    out = []
    owner: dict[tuple[str, str], str] = {}
    for e in sorted(entries, key=lambda e: (str(e.path), e.id)):
        for lang in LANGS:
            for i, name in enumerate(e.also_called(lang)):
                key = (e.game, " ".join(fold(w) for *_, w in tokens(name)))
                first = owner.setdefault(key, e.id)
                if first != e.id:
                    out.append(diag("duplicate-player-name", e.marks.at(("also_called", lang, i)),
                                    lang=lang, name=name, first=first))
    return out


def _terms_in(index: TermIndex, entry: Entry) -> frozenset[str]:
    """The other terms of the entry's game that its texts name."""
    return frozenset(m.term for _, text in iter_texts(entry.data) for lang, value in text.items()
                     for m in index.detect(value, lang, entry.game) if m.term != entry.id)


def link(entries: dict[str, Entry], memo: Callable[[str, Entry, Callable[[], Any]], Any] = no_memo,
         unloaded: Mapping[str, Path] | None = None) -> tuple[Graph, list[Diagnostic]]:
    """Resolve every link of every entry, compute backlinks and the glossary graph.

    ``memo`` may return an entry's term detection from an earlier run (see :class:`kb.cache.Memo`).
    ``unloaded``: the ids of files that did not load (:attr:`kb.core.loader.Loaded.unloaded`); a link to one
    names that file as the cause instead of suggesting another entry.
    """
    linker = _Linker(entries, memo)
    linker.unloaded = dict(unloaded or {})
    for entry in entries.values():
        linker.inline(entry)
        linker.structural(entry)
    linker.glossary()
    return linker.graph, linker.problems


