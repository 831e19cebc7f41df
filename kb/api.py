"""The query API: load and link once, then ask."""

from __future__ import annotations

import gc
import os
from contextlib import contextmanager
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any, Collection, Iterable, Iterator, Mapping

from kb.core import cache
from kb.examples import runner as _examples
from kb.examples.limits import ExampleLimits
from kb.places import example_limits as _example_limits, resolve_cache_base, user_key
from kb.core.diagnostics import Diagnostic, sort_key
from kb.core.errors import InvalidArgument, UnknownEntry, UnknownExample, UnknownValue, check_argument
from kb.link.linker import Graph, Link, link, rebuild
from kb.link.view import ConceptView
from kb.core.files import NoContent, content_root, default_content_root, file_digest, find_root
from kb.core.loader import Loaded, load_tree
from kb.core.timelimit import SECONDS
from kb.mechanics import Registry
from kb.mechanics.dice import chance, parse
from kb.core.model import COMMON, KINDS, LANGS, Entry, Game, Text
from kb.i18n.history import History
from kb.i18n.status import check_translations

if TYPE_CHECKING:
    from kb.search.index import Reader
    from kb.search.ranking import Params
    from kb.search.query import Passage, Result

__all__ = ["KnowledgeBase", "ConceptView", "NoContent", "default_content_root", "find_root"]


@contextmanager
def _no_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector: loading builds (or unpickles) many objects and no cycles worth
    collecting, and the collector's repeated full passes over them cost a third of a cached load."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


def _glossary_signature(entries: Mapping[str, Entry]) -> str:
    """A hash of what per-entry glossary work reads besides the entry: every term and every title."""
    import hashlib

    h = hashlib.sha256()
    for e in sorted(entries.values(), key=lambda e: e.id):
        h.update(repr((e.id, e.kind, e.game, e.title, e.term)).encode())
    return h.hexdigest()[:16]


def _linked_shape(linked: Any) -> bool:
    """True when a cached linked state has the shape this engine writes."""
    return (isinstance(linked, dict) and isinstance(linked.get("links"), list) and isinstance(linked.get("concepts"), dict)
            and isinstance(linked.get("problems"), list) and all(isinstance(lk, Link) for lk in linked["links"])
            and all(isinstance(d, Diagnostic) for d in linked["problems"]))


def _memo_shape(memo: Any) -> dict[Any, Any] | None:
    """The records of a cached memo that have the shape the stages write (the rest is recomputed)."""
    if not isinstance(memo, dict):
        return None
    return {k: v for k, v in memo.items() if _all_of(k, tuple, str, 4) and (_all_of(v, frozenset, str) or _all_of(v, list, Diagnostic))}


def _all_of(value: Any, container: type[Collection[Any]], item: type, size: int | None = None) -> bool:
    """True when ``value`` is a ``container`` (of ``size`` items, when given) of ``item`` only."""
    return (isinstance(value, container) and (size is None or len(value) == size)
            and all(isinstance(x, item) for x in value))


def _setup(digests: Mapping[str, str]) -> dict[str, str]:
    """The digests of the games' ``game.yaml`` and ``mechanics.py`` (what every example of a game may read)."""
    return {k: v for k, v in digests.items() if os.path.basename(k) in ("game.yaml", "mechanics.py")}


def _pack_thesaurus_digest(loaded: Loaded) -> None:
    """Count the pack's players' words (``content/thesaurus.txt``) among the tree's files: its checks and the search
    index follow its changes."""
    from kb.search.thesaurus import PACK_FILE

    if (loaded.root / PACK_FILE).is_file():
        loaded.digests[PACK_FILE] = file_digest(loaded.root / PACK_FILE)


def _pack_thesaurus_problems(loaded: Loaded) -> list[Diagnostic]:
    """:func:`kb.search.thesaurus.check` of the pack's players' words, the rules' words read as the search reads them."""
    from kb.search import query, thesaurus

    return thesaurus.check(loaded.root, loaded.entries.values(), lambda lang, word: query.analyse(f"body_{lang}", word))


def _one_of(what: str, value: str | None, allowed: Iterable[str]) -> None:
    """Raise :class:`kb.UnknownValue` when ``value`` is given and not one of ``allowed``."""
    allowed = list(allowed)
    if value is not None and value not in allowed:
        raise UnknownValue(what, value, allowed)


RULE_TYPES = ("core", "optional", "variant", "clarification")
"""The rule types an entry may declare."""


class KnowledgeBase:
    """A loaded, validated and linked knowledge base."""

    def __init__(self, loaded: Loaded, graph: Graph, diagnostics: list[Diagnostic], cache_base: Path) -> None:
        self._loaded = loaded
        self.cache_base = cache_base
        """Where its caches go (:func:`kb.places.resolve_cache_base`: ``$KB_CACHE``, else beside the content, else
        the user's cache folder)."""
        self.cache_key: cache.KeyFn | None = None
        """What signs its cache files (:func:`user_key` when :meth:`load` made it; ``None``: a key for this run)."""
        self.example_limits = ExampleLimits()
        """What one worked example may take (its ``seconds``); :meth:`load`'s ``example_limits``."""
        self._reader: Reader | None = None
        self._filtered: dict[tuple[str | None, str | None, str | None], list[Entry]] = {}
        self.ranking: Params | None = None
        """The search's ranking figures (:class:`kb.search.ranking.Params`); ``None``: the tuned defaults."""
        self.graph = graph
        self.diagnostics: list[Diagnostic] = sorted(diagnostics, key=sort_key)
        """Every problem found, sorted by file and line."""

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None, use_cache: bool = True,
             cache_base: str | os.PathLike[str] | None = None, ranking: "Params | None" = None,
             before: "KnowledgeBase | None" = None, example_limits: ExampleLimits | None = None) -> "KnowledgeBase":
        """Load the content tree at ``path`` (default: :func:`default_content_root`); never raises for bad content.

        Raises :class:`kb.NoContent` when ``path`` (or, without it, the current folder and those above it)
        holds no content tree: an empty success would hide the mistake.

        Unchanged files and an unchanged tree are taken from the cache (:mod:`kb.cache`);
        ``use_cache=False`` parses and links everything afresh. ``cache_base`` is the cache folder
        (default ``$KB_CACHE``, else ``.kb-cache/`` beside the content): the environment is read here, at
        the edge, and passed down; the core reads none. ``ranking``: the search's figures
        (``dataclasses.replace(kb.search.ranking.DEFAULTS, ...)`` for a variant; default the tuned ones).
        ``before``: an earlier load of the same folder in this process (a preview's rebuild), whose parsed files
        are reused from memory when unchanged instead of reading the parse cache's file. ``example_limits``:
        what a worked example may take (default :class:`kb.examples.limits.ExampleLimits`, its ``seconds``
        ``$KB_EXAMPLE_SECONDS`` when set).
        """
        root = content_root(Path(path)) if path is not None else default_content_root(given=os.environ.get("KB_CONTENT"))
        limits = example_limits or _example_limits(os.environ.get("KB_EXAMPLE_SECONDS"))
        with _no_gc():
            kb = cls._load(root, use_cache, resolve_cache_base(root, cache_base or os.environ.get("KB_CACHE")),  # an adapter
                           before._loaded if before is not None else None, limits.seconds)
        kb.ranking = ranking
        kb.example_limits = limits
        return kb

    @classmethod
    def _load(cls, root: Path, use_cache: bool, cache_base: Path,
              before: Loaded | None = None, seconds: float = SECONDS) -> "KnowledgeBase":
        loaded = load_tree(root, use_cache=use_cache, cache_base=cache_base, before=before, key=user_key, seconds=seconds)
        _pack_thesaurus_digest(loaded)
        history = History()
        head = history.state(root)  # the translation stage reads git history: its results are kept per commit
        linked_path = cache.cache_dir(root, "linked", cache_base) / f"{cache.tree_key(loaded.digests)}-{head[:16]}.json"
        linked = cache.load(linked_path, (Link,), user_key) if use_cache else None
        if not isinstance(linked, dict) or not _linked_shape(linked):
            memo_path = linked_path.with_name("memo.json")
            memo = cache.Memo(_memo_shape(cache.load(memo_path, key=user_key)) if use_cache else None, _glossary_signature(loaded.entries),
                              lambda e: loaded.digests.get(os.path.relpath(e.path, loaded.root), ""))
            graph, problems = link(loaded.entries, memo, loaded.unloaded)
            problems += _examples.check_examples(loaded.entries.values(), loaded.registry)
            problems += _pack_thesaurus_problems(loaded)
            problems += check_translations(loaded.entries.values(), graph.terms,
                                           lambda stage, e, compute: memo(f"{stage}@{head}", e, compute),
                                           history.written_from, loaded.games.values())
            if use_cache:
                cache.prune(linked_path.parent, {memo_path, linked_path})  # one linked state per tree is enough
                cache.save(linked_path, {"links": graph.links, "concepts": graph.concepts, "problems": problems}, (Link,), user_key)
                cache.save(memo_path, memo.current, key=user_key)
        else:
            graph = rebuild(loaded.entries, linked["links"], linked["concepts"])
            problems = linked["problems"]
        kb = cls(loaded, graph, loaded.diagnostics + problems, cache_base)
        kb.cache_key = user_key
        return kb

    # ------------------------------------------------------------------ entries
    @property
    def root(self) -> Path:
        """The content folder."""
        return self._loaded.root

    @property
    def entries(self) -> Mapping[str, Entry]:
        """Every entry by id."""
        return self._loaded.entries

    @property
    def games(self) -> Mapping[str, Game]:
        """Game metadata by id."""
        return self._loaded.games

    @property
    def registry(self) -> Registry:
        """The named resolvers (generic and per game)."""
        return self._loaded.registry

    @property
    def digests(self) -> Mapping[str, str]:
        """Content hash of every file (relative path -> digest)."""
        return self._loaded.digests

    @property
    def ok(self) -> bool:
        """True when no diagnostic is an error."""
        return not any(d.severity == "error" for d in self.diagnostics)

    def get(self, entry_id: str) -> Entry | None:
        """The entry with ``entry_id``, or ``None``."""
        return self._loaded.entries.get(entry_id)

    def data(self, entry_id: str) -> Mapping[str, Any] | None:
        """The plain data of an entry (what resolvers see)."""
        entry = self.get(entry_id)
        return entry.data if entry else None

    def entry(self, entry_id: str) -> Entry:
        """The entry with ``entry_id``; raises :class:`kb.UnknownEntry` (with "did you mean") when there is none,
        :class:`kb.InvalidArgument` for an id that is no text (``None``)."""
        check_argument("entry_id", entry_id, str, "an entry id (text)")
        found = self._loaded.entries.get(entry_id)
        if found is None:
            raise UnknownEntry(entry_id, self._loaded.entries)
        return found

    def text(self, entry_id: str, lang: str = "es") -> str:
        """Entry ``entry_id`` as plain wrapped text in ``lang`` (``"es"`` or ``"en"``): title, facts, sections,
        worked examples with their verified results, source and backlinks, links shown as their words, no Markdown
        or HTML. What ``kb show ID`` prints (:func:`kb.site.text.render_text` over :mod:`kb.view`'s entry view).
        Raises :class:`kb.UnknownEntry`, :class:`kb.UnknownValue` (an unknown language) or :class:`kb.InvalidArgument`
        (an id that is no text, such as ``None``)."""
        from kb.site.place import source_titles
        from kb.site.text import render_text
        from kb.view.worked import name_finder

        entry = self.entry(entry_id)
        if lang not in LANGS:
            raise UnknownValue("language", lang, LANGS)
        results = {r.example.id: r for r in self.run_examples([entry.id])}
        meta = self.games.get(entry.game)
        names = name_finder(entry.game, meta.name if meta else None, meta.data.get("names") if meta else None,
                            self.entries)
        return render_text(entry, lang, self._title, self.backlinks(entry.id), results, resolvers=self.registry.get,
                           names=names, documents=source_titles(meta.data) if meta else None)

    def passages(self, entry_id: str, lang: str = "es") -> list["Passage"]:
        """The places of entry ``entry_id``'s page in ``lang`` that have an id, each with its plain text, in reading
        order: its heading (the entry's anchor), then each passage a search hit can name (``Hit.passage``: the
        summary, a paragraph ``text-2``, a step ``step-upkeep``, an example ``example-hit``...) and each section's
        heading. What ``kb show ID#ANCHOR`` looks the anchor up in. Raises :class:`kb.UnknownEntry` or
        :class:`kb.UnknownValue` (an unknown language)."""
        from kb.search.index import page_passages
        from kb.search.query import Passage
        from kb.view.anchors import entry_anchor
        from kb.view.entry import entry_view

        entry = self.entry(entry_id)
        if lang not in LANGS:
            raise UnknownValue("language", lang, LANGS)
        found = page_passages(entry, entry_view(entry, lang, self._title), self._title)
        heading = (entry_anchor(entry.id), entry.title.best(lang))
        return [Passage(a, t) for a, t in dict([heading, *found]).items()]

    def _title(self, entry_id: str) -> Text | None:
        found = self.get(entry_id)
        return found.title if found else None

    def filter(self, game: str | None = None, kind: str | None = None, rule_type: str | None = None) -> list[Entry]:
        """Entries of a game, kind and rule type (any, when not given), sorted by id.

        An unknown game, kind or rule type raises :class:`kb.UnknownValue`: a typo is not an empty answer.
        """
        self._known(game=game, kind=kind)
        _one_of("rule type", rule_type, RULE_TYPES)
        key = (game, kind, rule_type)
        if key not in self._filtered:  # the site asks for each game's kinds once per entry page: one scan each
            wanted = {"game": game, "kind": kind, "rule_type": rule_type}
            self._filtered[key] = sorted((e for e in self.entries.values()
                                          if all(v is None or getattr(e, k) == v for k, v in wanted.items())),
                                         key=lambda e: e.id)
        return list(self._filtered[key])

    def _known(self, game: str | None = None, kind: str | None = None) -> None:
        """Raise :class:`kb.UnknownValue` for a game or kind this knowledge base does not have."""
        _one_of("game", game, [*self.games, COMMON])
        _one_of("kind", kind, KINDS)

    # ------------------------------------------------------------------ links
    def links_from(self, entry_id: str) -> list[Link]:
        """Links written in an entry (none for an id that is not there)."""
        return list(self.graph.outgoing.get(entry_id, ()))

    def backlinks(self, entry_id: str) -> list[Link]:
        """Links pointing at an entry ("referenced by"); links to a missing id are reported by ``kb check``."""
        return list(self.graph.incoming.get(entry_id, ()))

    def term(self, text: str, lang: str | None = None) -> list[Entry]:
        """Terms that ``text`` names (any form or abbreviation, any case, with or without accents)."""
        return [self.entries[t] for t in self.graph.terms.lookup(text, lang)]

    def concept(self, concept_id: str) -> ConceptView:
        """A concept with its terms per game."""
        entry = self.entry(concept_id)
        if entry.kind != "concept":
            raise UnknownValue("concept", concept_id, (e.id for e in self.entries.values() if e.kind == "concept"))
        per_game = self.graph.concepts.get(concept_id, {})
        terms = {g: tuple(self.entries[t] for t in ids) for g, ids in sorted(per_game.items())}
        related: dict[str, list[Entry]] = {}
        for source in sorted({lk.source for lk in self.backlinks(concept_id)}):
            other = self.entries[source]
            if other.kind not in ("concept", "term"):
                related.setdefault(other.game, []).append(other)
        return ConceptView(entry, terms, {g: tuple(es) for g, es in sorted(related.items())})

    def concepts(self) -> list[ConceptView]:
        """Every concept, sorted by id."""
        return [self.concept(e.id) for e in self.filter(kind="concept")]

    def not_loaded(self, games: Iterable[str] | None = None) -> list[Diagnostic]:
        """Errors of the files that gave no entry (a file that does not parse, a duplicate id, a broken
        ``game.yaml`` or ``mechanics.py``...): whatever examples they hold would otherwise vanish unseen.

        With ``games``, only those below the named games' folders (and the content root itself).
        """
        loaded = {os.path.abspath(e.path) for e in self.entries.values()}
        wanted = set(games) if games is not None else None
        out = []
        for d in self.diagnostics:
            path = os.path.abspath(d.location.path)
            if d.severity != "error" or path in loaded:
                continue
            rel = os.path.relpath(path, self.root).split(os.sep)
            if wanted is None or rel[0] in wanted or rel[0] in (".", ".."):
                out.append(d)
        return out

    def mechanics_problems(self, prefix: str = "") -> list[Diagnostic]:
        """The errors of the games' ``mechanics.py`` (a module that does not load, a resolver it cannot register):
        the resolvers they would give are missing from :attr:`registry`. With ``prefix`` (a resolver name's
        beginning, ``dados`` or ``dados.hit``), only those of the games whose resolvers may start with it."""
        from kb.core.loader import MECHANICS

        def wanted(game: str) -> bool:
            return f"{game}.".startswith(prefix) or prefix.startswith(f"{game}.")

        return [d for d in self.diagnostics if d.severity == "error" and Path(d.location.path).name == MECHANICS
                and wanted(Path(d.location.path).parent.name)]

    # ------------------------------------------------------------------ examples and odds
    def run_examples(self, selectors: Iterable[str] | str = ()) -> list[_examples.ExampleResult]:
        """Run the examples of the selected entries (ids, games or ``id#example``; all by default). A single string
        is one selector: ``run_examples("malifaux")`` is ``run_examples(["malifaux"])``.

        A selector that names nothing raises, as ``kb test`` refuses it (an empty list would pass for "all passed"):
        :class:`kb.UnknownEntry` for an id (or ``id#example``) no entry has, :class:`kb.UnknownValue` for a game
        (a name without a dot) that does not exist, :class:`kb.UnknownExample` for ``id#example`` when the entry has
        no such example, as :meth:`run_example` raises it; all with "did you mean".
        """
        chosen = [selectors] if isinstance(selectors, str) else list(selectors)
        for selector in chosen:
            self._known_selector(selector)
        return _examples.run_examples(self.entries.values(), self.registry, self.data, chosen,
                                      self.example_limits.seconds)

    def _known_selector(self, selector: str) -> None:
        """Raise the :class:`kb.KbError` :meth:`run_examples` gives for a selector that names nothing."""
        name, sep, example = selector.partition("#")
        if name in self.entries:
            ids = [x.id for x in self.entries[name].examples]
            if sep and example not in ids:
                raise UnknownExample(name, example, ids)
        elif sep or "." in name:  # an entry id: ``id#example`` names an entry's example, never a game's
            raise UnknownEntry(name, self.entries)
        else:
            self._known(game=name)

    def run_examples_since(self, before: "KnowledgeBase",
                           results: Iterable[_examples.ExampleResult]) -> tuple[list[_examples.ExampleResult], int]:
        """Every example's result, as :meth:`run_examples` gives them, running again only those an edit since
        ``before`` (an earlier load of the same folder, whose examples gave ``results``) can have changed: the
        examples of entries whose file changed, every example when a game's ``game.yaml`` or ``mechanics.py``
        changed, and those whose resolver reads other entries. Also returns how many were run."""
        by_entry: dict[str, list[_examples.ExampleResult]] = {}
        for r in results:
            by_entry.setdefault(r.entry.id, []).append(r)
        same_tree = before.root == self.root and _setup(before.digests) == _setup(self.digests)

        def kept(entry: Entry) -> list[_examples.ExampleResult] | None:
            rel = os.path.relpath(entry.path, self.root)
            if not same_tree or before.digests.get(rel) != self.digests.get(rel):
                return None
            return by_entry.get(entry.id, [])

        return _examples.run_examples_again(self.entries.values(), self.registry, self.data, kept,
                                            self.example_limits.seconds)

    def wording(self, results: Iterable[_examples.ExampleResult] | None = None) -> list[Diagnostic]:
        """The wording lint of every worked example in both languages (:mod:`kb.view.wording`): raw ids,
        words of the other language, a number and its noun that disagree; one located warning each; and each
        message of a game's mechanics module worded with an f-string (``message-fstring``), and each sequence step
        whose title carries another number than the step's (``step-number``)."""
        from kb.core.diagnostics import diag
        from kb.view.wording import content_vocabularies, lint_results
        from kb.view.worked import example_view

        done = list(self.run_examples() if results is None else results)
        resolvers = [r for r in map(self.registry.get, self.registry.names()) if r]
        vocab = content_vocabularies(self.entries, self.games, resolvers, done)

        def view_of(d: _examples.ExampleResult, lang: str):  # type: ignore[no-untyped-def]
            return example_view(d.entry, d.example, d, lang, self.registry.get(d.example.mechanic), self._names(d.entry.game))

        return [diag("example-wording", d.example.location, id=d.example.id, lang=lang, finding=str(f))
                for d, lang, f in lint_results(done, vocab, view_of)] + self._fstring_messages() + self._step_numbers()

    def _step_numbers(self) -> list[Diagnostic]:
        """Sequence steps whose title carries a number other than the step's (:func:`kb.view.wording.step_number_faults`)."""
        from kb.core.diagnostics import diag
        from kb.view.wording import step_number_faults

        return [diag("step-number", e.marks.at(path), id=e.id, lang=lang, title=title, number=number or "none")
                for e in self.entries.values() for path, lang, title, number in step_number_faults(e)]

    def _fstring_messages(self) -> list[Diagnostic]:
        """Each game's mechanics module's messages worded with an f-string (:func:`kb.view.wording.fstring_messages`)."""
        from kb.core.diagnostics import diag
        from kb.core.loader import MECHANICS
        from kb.core.model import Location
        from kb.view.wording import fstring_messages

        out = []
        for game in sorted(self.games):
            path = Path(self.root) / game / MECHANICS
            try:
                found = list(fstring_messages(path.read_text(encoding="utf-8"))) if path.is_file() else []
            except (OSError, UnicodeDecodeError, SyntaxError, ValueError):
                continue  # a module that cannot be read or parsed is reported by the loader
            out += [diag("message-fstring", Location(path, line, col), text=text) for line, col, text in found]
        return out

    def _names(self, game: str) -> Any:
        """The names of a game's ids (:func:`kb.view.worked.name_finder`)."""
        from kb.view.worked import name_finder

        meta = self.games.get(game)
        return name_finder(game, meta.name if meta else None, meta.data.get("names") if meta else None, self.entries)

    def run_example(self, entry_id: str, example_id: str) -> _examples.ExampleResult:
        """Run one example."""
        entry = self.entry(entry_id)
        ex = next((x for x in entry.examples if x.id == example_id), None)
        if ex is None:
            raise UnknownExample(entry_id, example_id, [x.id for x in entry.examples])
        return _examples.run_example(entry, ex, self.registry, self.data, self.example_limits.seconds)

    # ------------------------------------------------------------------ search
    def search(self, query: str, lang: str | None = None, game: str | None = None, kind: str | None = None,
               limit: int = 10) -> "Result":
        """Find entries by any of their names, in either language, with typos; returns a
        :class:`kb.search.query.Result` (``hits``, ``total``, ``by_game``, ``did_you_mean``; ``to_dict()``).

        ``lang`` (``es`` or ``en``) is the reader's language: titles and snippets in it, spelling drawn
        from it; the query matches both languages. With no ``lang``, hits are shown in the language most of the
        query's words are words of (Spanish when they do not say). ``game`` and ``kind`` filter; an unknown language or
        game (or kind) raises :class:`kb.UnknownValue` naming the accepted ones; a ``limit`` below 1 (or no whole
        number) or a query that is no text (``None``) raises :class:`kb.InvalidArgument`, a :class:`kb.KbError` that
        is also a ``ValueError`` and a ``TypeError``. The index is brought up to
        date with this knowledge base on the first search (built, or updated for the files that changed;
        see :mod:`kb.search.index`), then kept open.
        """
        check_argument("query", query, str, "text")
        _one_of("language", lang, LANGS)
        self._known(game=game, kind=kind)
        check_argument("limit", limit, int, "a whole number of 1 or more")
        if limit < 1:
            raise InvalidArgument("limit", limit, "a whole number of 1 or more")
        return self.search_reader().search(query, lang=lang, game=game, kind=kind, limit=limit)

    def search_reader(self) -> "Reader":
        """The search index, brought up to date on first use and then kept open (a :class:`kb.search.index.Reader`)."""
        if self._reader is None:
            from kb.search.index import SearchIndex

            index = SearchIndex(self.root, cache.cache_dir(self.root, "search", self.cache_base))
            index.ensure(lambda: self)
            self._reader = index.open(self.ranking) if self.ranking is not None else index.open()
        return self._reader

    @staticmethod
    def odds(dice: str, at_least: int | None = None, at_most: int | None = None) -> Fraction:
        """Exact probability that ``dice`` totals within the bounds: ``odds("2d6", at_least=5) == Fraction(30, 36)``.

        Raises :class:`kb.RuleError` (code ``bad-dice`` or ``dice-limit``) for dice that are no expression such as
        ``2d6`` or ``d20+1``, or past the limits, and :class:`kb.InvalidArgument` for a bound that is no whole number
        (``at_least="5"``) or dice that are no text."""
        check_argument("dice", dice, str, "a dice expression (text) such as 2d6")
        for name, bound in (("at_least", at_least), ("at_most", at_most)):
            if bound is not None:
                check_argument(name, bound, int, "a whole number or None")
        fav, total = chance(parse(dice), at_least, at_most)
        return Fraction(fav, total)
